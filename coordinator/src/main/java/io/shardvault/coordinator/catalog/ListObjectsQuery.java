package io.shardvault.coordinator.catalog;

import java.util.Objects;
import java.util.Optional;

/**
 * A ListObjects (v1 or v2) query over the current versions of a bucket's keys.
 *
 * <p>Results (keys and common prefixes) come in UTF-8 byte order, and every one sorts strictly
 * after the resume point: the continuation token when present, else {@code startAfter} (v2) or the
 * marker (v1). So a common prefix that sorts at or before the resume point is not repeated, and
 * passing a page's last entry as the marker never repeats or skips anything. Keys whose latest
 * version is a delete marker are invisible.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with this ("" for all)
 * @param delimiter when non-empty, keys with it after the prefix roll up into one common prefix
 *     (up to and including the first delimiter after the prefix)
 * @param startAfter the v2 start-after or v1 marker ("" for none)
 * @param continuationToken a token from a previous page's {@link ObjectListing#nextContinuationToken()}
 * @param maxKeys at most this many keys and common prefixes together, in [0, 10000]
 */
public record ListObjectsQuery(String bucket, String prefix, String delimiter, String startAfter,
                               Optional<String> continuationToken, int maxKeys) {
    public ListObjectsQuery {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(delimiter, "delimiter");
        Objects.requireNonNull(startAfter, "startAfter");
        Objects.requireNonNull(continuationToken, "continuationToken");
        if (maxKeys < 0 || maxKeys > 10_000) {
            throw new IllegalArgumentException("maxKeys must be in [0, 10000]: " + maxKeys);
        }
    }

    /** Every key with {@code prefix}, first page of {@code maxKeys}. */
    public static ListObjectsQuery of(String bucket, String prefix, int maxKeys) {
        return new ListObjectsQuery(bucket, prefix, "", "", Optional.empty(), maxKeys);
    }
}
