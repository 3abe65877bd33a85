package io.shardvault.s3;

import java.util.Objects;

/**
 * ListObjectVersions' parameters (issue #9).
 *
 * @param bucket the bucket
 * @param prefix only keys starting with this ("" for all)
 * @param delimiter rolls keys up into common prefixes, or {@code null}
 * @param keyMarker resume after this key, or {@code null} for the start
 * @param versionIdMarker resume after this version of {@code keyMarker} ({@code "null"} names the
 *     null version), or {@code null} for after every version of it
 * @param maxKeys at most this many versions, delete markers and common prefixes together, 0..1000
 */
public record ListVersionsRequest(String bucket, String prefix, String delimiter, String keyMarker,
                                  String versionIdMarker, int maxKeys) {
    public ListVersionsRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (maxKeys < 0 || maxKeys > 1000) {
            throw new IllegalArgumentException("maxKeys must be in [0, 1000]: " + maxKeys);
        }
    }
}
