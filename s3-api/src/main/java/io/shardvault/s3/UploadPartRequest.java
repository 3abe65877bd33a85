package io.shardvault.s3;

import java.util.Objects;

/**
 * An UploadPart.
 *
 * @param bucket the bucket
 * @param key the key
 * @param uploadId the upload
 * @param partNumber 1..10000
 * @param body the part's bytes (see {@link BodySource})
 */
public record UploadPartRequest(String bucket, String key, String uploadId, int partNumber, BodySource body) {
    public UploadPartRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(body, "body");
    }
}
