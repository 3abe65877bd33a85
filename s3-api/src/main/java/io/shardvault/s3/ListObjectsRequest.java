package io.shardvault.s3;

import java.util.Objects;

/**
 * One page of ListObjects (v1) or ListObjectsV2; the S3 layer turns markers, start-after and
 * continuation tokens into {@code after}.
 *
 * @param bucket the bucket
 * @param prefix only keys starting with it ({@code ""} for all)
 * @param delimiter roll keys up to their first delimiter after the prefix into common prefixes, or
 *     {@code null}
 * @param after list only entries sorting strictly after this (a key or a common prefix previously
 *     returned; when it is a common prefix, every key under it is skipped), or {@code null}
 * @param maxKeys at most this many keys plus common prefixes, 0..1000
 * @param fetchOwner whether summaries need their owner
 */
public record ListObjectsRequest(String bucket, String prefix, String delimiter, String after, int maxKeys,
                                 boolean fetchOwner) {
    public ListObjectsRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (maxKeys < 0 || maxKeys > 1000) {
            throw new IllegalArgumentException("maxKeys must be in [0, 1000]: " + maxKeys);
        }
    }
}
