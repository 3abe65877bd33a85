package io.shardvault.coordinator.catalog;

import java.util.Objects;
import java.util.Optional;

/**
 * A request to delete an object (write a delete marker or remove the {@code null} version) or,
 * with a version id, to remove one version for good.
 *
 * @param bucket the bucket name
 * @param key the object key
 * @param versionId the version to remove; empty to delete the object
 * @param bypassGovernanceRetention whether the caller asked to bypass GOVERNANCE retention (the
 *     S3 edge sets it only for keys allowed to)
 */
public record DeleteObjectVersion(String bucket, String key, Optional<String> versionId,
                                  boolean bypassGovernanceRetention) {
    public DeleteObjectVersion {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(versionId, "versionId");
    }
}
