package io.shardvault.s3;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the client sets on an object and gets back verbatim. Any field may be {@code null} (not set).
 *
 * @param contentType Content-Type ({@code binary/octet-stream} is answered when null)
 * @param cacheControl Cache-Control
 * @param contentDisposition Content-Disposition
 * @param contentEncoding Content-Encoding ({@code aws-chunked} already removed)
 * @param contentLanguage Content-Language
 * @param expires Expires, as the client sent it
 * @param userMetadata {@code x-amz-meta-*} headers, names lowercased and without the prefix
 */
public record ObjectMetadata(String contentType, String cacheControl, String contentDisposition,
                             String contentEncoding, String contentLanguage, String expires,
                             Map<String, String> userMetadata) {
    public static final ObjectMetadata EMPTY = new ObjectMetadata(null, null, null, null, null, null, Map.of());

    public ObjectMetadata {
        userMetadata = java.util.Collections.unmodifiableMap(
                new TreeMap<>(Objects.requireNonNull(userMetadata, "userMetadata")));
    }
}
