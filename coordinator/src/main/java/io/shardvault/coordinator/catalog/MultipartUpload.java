package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A multipart upload in progress.
 *
 * @param bucket the bucket name
 * @param key the object key
 * @param uploadId its id (16 hex digits; ascending in creation order)
 * @param initiated the leader's time when it was created
 * @param metadata the metadata the completed object will carry
 * @param retention the Object Lock retention the completed object will carry
 * @param legalHold whether the completed object will carry a legal hold
 */
public record MultipartUpload(String bucket, String key, String uploadId, Instant initiated, ObjectMetadata metadata,
                              Optional<Retention> retention, boolean legalHold) {
    public MultipartUpload {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(initiated, "initiated");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(retention, "retention");
    }
}
