package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A bucket.
 *
 * @param name the S3 bucket name
 * @param id the catalog's internal id, never reused: a bucket deleted and created again is a new bucket
 * @param ownerAccessKeyId the id of the {@link Account} that owns it (the creating key's account; for a
 *     bucket made before accounts, its key's free-text owner, a legacy account's id)
 * @param createdAt the leader's time when it was created
 * @param versioning its versioning state
 * @param objectLockEnabled whether Object Lock was enabled at creation (this implies versioning)
 * @param defaultRetentionMode the Object Lock default retention's mode, if one is set
 * @param defaultRetentionDays the default retention's length in days (0 when none is set)
 */
public record Bucket(String name, int id, String ownerAccessKeyId, Instant createdAt, VersioningState versioning,
                     boolean objectLockEnabled, Optional<RetentionMode> defaultRetentionMode,
                     int defaultRetentionDays) {
    public Bucket {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ownerAccessKeyId, "ownerAccessKeyId");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(versioning, "versioning");
        Objects.requireNonNull(defaultRetentionMode, "defaultRetentionMode");
        if (defaultRetentionDays < 0) {
            throw new IllegalArgumentException("defaultRetentionDays must be >= 0: " + defaultRetentionDays);
        }
    }
}
