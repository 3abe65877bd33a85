package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.WriteCondition;
import io.shardvault.s3.internal.HeaderText;
import io.shardvault.s3.internal.HttpDates;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Request headers to store types and store types to response headers. Stateless. */
final class S3Headers {
    private static final int MAX_USER_METADATA_BYTES = 2048;

    private S3Headers() {
    }

    /**
     * Refuses write headers that ask for what this store does not do, rather than storing the object without
     * it and answering success: server-side encryption (SSE-S3, SSE-KMS, SSE-C), object tags, and any storage
     * class but STANDARD. For PutObject, CopyObject and CreateMultipartUpload.
     */
    static void refuseUnsupportedWriteHeaders(S3Request r) {
        for (String name : r.headers().names()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-amz-server-side-encryption")) {
                throw S3Error.notImplemented("server-side encryption (" + lower + ")");
            }
            if (lower.equals("x-amz-tagging")) {
                throw S3Error.notImplemented("object tagging (x-amz-tagging)");
            }
        }
        String storageClass = r.header("x-amz-storage-class");
        if (storageClass != null && !storageClass.trim().equals("STANDARD")) {
            throw S3Error.badRequest("InvalidStorageClass", "The storage class you specified is not valid: only "
                    + "STANDARD is served.").with("StorageClassRequested", storageClass.trim());
        }
    }

    static ObjectMetadata metadata(S3Request r) {
        Map<String, String> user = new TreeMap<>();
        int size = 0;
        for (Map.Entry<String, String> e : r.headers()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-meta-")) {
                String k = name.substring("x-amz-meta-".length());
                // Stored as the client meant it: UTF-8 bytes read as UTF-8, RFC 2047 words decoded (as S3 does).
                String v = HeaderText.decodeRfc2047(HeaderText.decode(e.getValue()));
                user.merge(k, v, (a, b) -> a + "," + b);
                size += k.getBytes(StandardCharsets.UTF_8).length + v.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (size > MAX_USER_METADATA_BYTES) {
            throw S3Error.badRequest("MetadataTooLarge", "Your metadata headers exceed the maximum allowed metadata size.")
                    .with("MaxSizeAllowed", Integer.toString(MAX_USER_METADATA_BYTES));
        }
        return new ObjectMetadata(r.header(HttpHeaderNames.CONTENT_TYPE), r.header(HttpHeaderNames.CACHE_CONTROL),
                r.header(HttpHeaderNames.CONTENT_DISPOSITION), contentEncoding(r.header(HttpHeaderNames.CONTENT_ENCODING)),
                r.header(HttpHeaderNames.CONTENT_LANGUAGE), r.header(HttpHeaderNames.EXPIRES), user);
    }

    /**
     * Content-Encoding without the transport-only {@code aws-chunked} token; a value without that token is
     * kept as sent.
     */
    private static String contentEncoding(String value) {
        if (value == null) {
            return null;
        }
        List<String> kept = new ArrayList<>();
        boolean dropped = false;
        for (String token : value.split(",")) {
            String t = token.trim();
            if (t.equalsIgnoreCase("aws-chunked")) {
                dropped = true;
            } else if (!t.isEmpty()) {
                kept.add(t);
            }
        }
        if (!dropped) {
            return value;
        }
        return kept.isEmpty() ? null : String.join(", ", kept);
    }

    static WriteCondition writeCondition(S3Request r) {
        String ifMatch = r.header(HttpHeaderNames.IF_MATCH);
        String ifNoneMatch = r.header(HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null && !ifNoneMatch.trim().equals("*")) {
            throw S3Error.notImplemented("If-None-Match other than * on a write");
        }
        return new WriteCondition(ifMatch == null ? null : io.shardvault.s3.Etags.unquote(ifMatch),
                ifNoneMatch != null);
    }

    static ObjectLock lock(S3Request r) {
        String mode = r.header("x-amz-object-lock-mode");
        String until = r.header("x-amz-object-lock-retain-until-date");
        String hold = r.header("x-amz-object-lock-legal-hold");
        if (mode == null && until == null && hold == null) {
            return ObjectLock.NONE;
        }
        if ((mode == null) != (until == null)) {
            throw S3Error.invalidArgument("x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both "
                    + "be supplied", "x-amz-object-lock-mode", mode);
        }
        RetentionMode m = null;
        Instant t = null;
        if (mode != null) {
            try {
                m = RetentionMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
                t = Instant.parse(until.trim());
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw S3Error.invalidArgument("Invalid Object Lock retention", "x-amz-object-lock-mode", mode);
            }
        }
        boolean legalHold = false;
        if (hold != null) {
            if (hold.equalsIgnoreCase("ON")) {
                legalHold = true;
            } else if (!hold.equalsIgnoreCase("OFF")) {
                throw S3Error.invalidArgument("Legal Hold must be either of 'ON' or 'OFF'",
                        "x-amz-object-lock-legal-hold", hold);
            }
        }
        return new ObjectLock(m, t, legalHold);
    }

    static void objectHeaders(HttpHeaders h, ObjectInfo info, boolean checksum) {
        ObjectMetadata m = info.metadata();
        h.set(HttpHeaderNames.ETAG, quote(info.etag()));
        h.set(HttpHeaderNames.LAST_MODIFIED, HttpDates.format(info.lastModified()));
        h.set(HttpHeaderNames.ACCEPT_RANGES, "bytes");
        h.set(HttpHeaderNames.CONTENT_TYPE, m.contentType() != null ? m.contentType() : "binary/octet-stream");
        setIf(h, HttpHeaderNames.CACHE_CONTROL, m.cacheControl());
        setIf(h, HttpHeaderNames.CONTENT_DISPOSITION, m.contentDisposition());
        setIf(h, HttpHeaderNames.CONTENT_ENCODING, m.contentEncoding());
        setIf(h, HttpHeaderNames.CONTENT_LANGUAGE, m.contentLanguage());
        setIf(h, HttpHeaderNames.EXPIRES, m.expires());
        // Non-ASCII values go out as RFC 2047 words, as S3 answers them: header bytes are ISO-8859-1 on the wire.
        m.userMetadata().forEach((k, v) -> h.set("x-amz-meta-" + k, HeaderText.encodeRfc2047(v)));
        setIf(h, "x-amz-version-id", info.versionId());
        // x-amz-mp-parts-count only answers a read by partNumber (S3 leaves it out of whole-object reads).
        if (info.lock().mode() != null) {
            h.set("x-amz-object-lock-mode", info.lock().mode().name());
            h.set("x-amz-object-lock-retain-until-date", XmlWriter.formatTime(info.lock().retainUntil()));
        }
        if (info.lock().legalHold()) {
            h.set("x-amz-object-lock-legal-hold", "ON");
        }
        if (checksum && info.checksum() != null) {
            checksumHeaders(h, info.checksum());
        }
    }

    static void checksumHeaders(HttpHeaders h, Checksum c) {
        if (c == null) {
            return;
        }
        h.set(c.algorithm().headerName(), c.value());
        h.set("x-amz-checksum-type", c.type().name());
    }

    static void checksumXml(XmlWriter xml, Checksum c) {
        if (c == null) {
            return;
        }
        xml.element("Checksum" + c.algorithm().s3Name(), c.value());
        xml.element("ChecksumType", c.type() == ChecksumType.COMPOSITE ? "COMPOSITE" : "FULL_OBJECT");
    }

    static void setIf(HttpHeaders h, CharSequence name, Object value) {
        if (value != null) {
            h.set(name, value);
        }
    }

    static String quote(String etag) {
        return "\"" + etag + "\"";
    }
}
