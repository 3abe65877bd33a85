package io.shardvault.s3;

import java.util.Objects;

/**
 * One page of ListMultipartUploads, ordered by key then initiation time.
 *
 * @param bucket the bucket
 * @param prefix only keys starting with it
 * @param delimiter roll up keys as in listings, or {@code null}
 * @param keyMarker start after this key, or {@code null}
 * @param uploadIdMarker with keyMarker: start after this upload of that key, or {@code null}
 * @param maxUploads 1..1000
 */
public record ListUploadsRequest(String bucket, String prefix, String delimiter, String keyMarker,
                                 String uploadIdMarker, int maxUploads) {
    public ListUploadsRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
    }
}
