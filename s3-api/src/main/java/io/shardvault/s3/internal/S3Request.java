package io.shardvault.s3.internal;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Map;

/**
 * A request as the operations see it: addressing resolved, query decoded. Immutable.
 *
 * @param method the HTTP method
 * @param rawPath the path exactly as sent (for the canonical request)
 * @param rawQuery the query exactly as sent, or ""
 * @param bucket the bucket, or null for service-level requests
 * @param key the key, or null for bucket-level requests
 * @param query decoded query parameters, in order (a name without '=' has value "")
 * @param headers the request headers
 * @param requestId the id answered in x-amz-request-id
 */
public record S3Request(HttpMethod method, String rawPath, String rawQuery, String bucket, String key,
                        List<Map.Entry<String, String>> query, HttpHeaders headers, String requestId) {

    /** The first value of a query parameter, or null. */
    public String param(String name) {
        for (Map.Entry<String, String> e : query) {
            if (e.getKey().equals(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    public boolean hasParam(String name) {
        return param(name) != null;
    }

    /**
     * A request header, or null: a header sent more than once is its values joined with ", ", in the
     * order sent, as RFC 9110 (section 5.3) reads a repeated field.
     */
    public String header(CharSequence name) {
        List<String> values = headers.getAll(name);
        if (values.isEmpty()) {
            return null;
        }
        return values.size() == 1 ? values.get(0) : String.join(", ", values);
    }

    /** The resource named in error bodies. */
    public String resource() {
        if (bucket == null) {
            return "/";
        }
        return key == null ? "/" + bucket : "/" + bucket + "/" + key;
    }
}
