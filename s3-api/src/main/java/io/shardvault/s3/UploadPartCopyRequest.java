package io.shardvault.s3;

import java.util.Objects;

/**
 * An UploadPartCopy.
 *
 * @param bucket the bucket
 * @param key the key
 * @param uploadId the upload
 * @param partNumber 1..10000
 * @param source the source and its conditions
 * @param rangeStart first source byte to copy, or -1 for the whole source
 * @param rangeEnd last source byte (inclusive), or -1 for the whole source; the store checks it
 *     against the source's size ({@code INVALID_ARGUMENT})
 */
public record UploadPartCopyRequest(String bucket, String key, String uploadId, int partNumber,
                                    CopySource source, long rangeStart, long rangeEnd) {
    public UploadPartCopyRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(source, "source");
    }
}
