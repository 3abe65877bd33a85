package io.shardvault.s3.internal;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Resolves the bucket and key of a request (virtual-host style when the Host is
 * {@code bucket.<base domain>}, path style otherwise) and decodes the query. Stateless.
 */
public final class RequestParser {
    private final List<String> baseDomains;

    public RequestParser(List<String> baseDomains) {
        this.baseDomains = List.copyOf(baseDomains);
    }

    public S3Request parse(HttpRequest http, String requestId) {
        String uri = http.uri();
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        String rawQuery = q < 0 ? "" : uri.substring(q + 1);
        if (rawPath.startsWith("http://") || rawPath.startsWith("https://")) {
            int slash = rawPath.indexOf('/', rawPath.indexOf("//") + 2);
            rawPath = slash < 0 ? "/" : rawPath.substring(slash);
        }
        if (!rawPath.startsWith("/")) {
            throw S3Error.badRequest("InvalidURI", "Couldn't parse the specified URI.");
        }
        List<Map.Entry<String, String>> query = parseQuery(rawQuery);
        String path = UriCodec.decode(rawPath, false);
        String hostBucket = hostBucket(http.headers().get(HttpHeaderNames.HOST));
        String bucket;
        String key;
        if (hostBucket != null) {
            bucket = hostBucket;
            key = path.length() > 1 ? path.substring(1) : null;
        } else {
            String rest = path.substring(1);
            if (rest.isEmpty()) {
                bucket = null;
                key = null;
            } else {
                int slash = rest.indexOf('/');
                bucket = slash < 0 ? rest : rest.substring(0, slash);
                key = slash < 0 || slash == rest.length() - 1 ? null : rest.substring(slash + 1);
            }
        }
        if (bucket != null) {
            S3Names.checkBucket(bucket);
        }
        if (key != null) {
            S3Names.checkKey(key);
        }
        return new S3Request(http.method(), rawPath, rawQuery, bucket, key, query, http.headers(), requestId);
    }

    static List<Map.Entry<String, String>> parseQuery(String rawQuery) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        if (rawQuery.isEmpty()) {
            return out;
        }
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = UriCodec.decode(eq < 0 ? part : part.substring(0, eq), true);
            String value = eq < 0 ? "" : UriCodec.decode(part.substring(eq + 1), true);
            out.add(new AbstractMap.SimpleImmutableEntry<>(name, value));
        }
        return out;
    }

    private String hostBucket(String host) {
        if (host == null) {
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            return null;
        }
        int colon = h.lastIndexOf(':');
        if (colon >= 0) {
            h = h.substring(0, colon);
        }
        for (String domain : baseDomains) {
            if (h.length() > domain.length() + 1 && h.endsWith("." + domain)) {
                return h.substring(0, h.length() - domain.length() - 1);
            }
        }
        return null;
    }
}
