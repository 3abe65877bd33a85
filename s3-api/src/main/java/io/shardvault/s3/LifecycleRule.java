package io.shardvault.s3;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One rule of a bucket's lifecycle configuration (issue #24), as far as this server applies rules: a key
 * prefix for filter and the four expiring actions. Lengths are whole days; 0 means the action is absent.
 *
 * @param id the rule's ID (1..255 characters, unique in its configuration)
 * @param enabled whether its Status is Enabled (a Disabled rule is kept and never applied)
 * @param prefix the keys it applies to ("" for every key)
 * @param expirationDays Expiration/Days: current versions this many days old expire
 * @param expirationDate Expiration/Date: current versions expire from this midnight UTC on
 * @param expiredObjectDeleteMarker Expiration/ExpiredObjectDeleteMarker: a delete marker that is its key's
 *     only version is removed
 * @param noncurrentDays NoncurrentVersionExpiration/NoncurrentDays: versions noncurrent this many days go
 * @param newerNoncurrentVersions NoncurrentVersionExpiration/NewerNoncurrentVersions: the newest this many
 *     noncurrent versions are kept whatever their age
 * @param abortAfterDays AbortIncompleteMultipartUpload/DaysAfterInitiation
 */
public record LifecycleRule(String id, boolean enabled, String prefix, int expirationDays,
                            Optional<Instant> expirationDate, boolean expiredObjectDeleteMarker, int noncurrentDays,
                            int newerNoncurrentVersions, int abortAfterDays) {
    public LifecycleRule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(expirationDate, "expirationDate");
        if (expirationDays < 0 || noncurrentDays < 0 || newerNoncurrentVersions < 0 || abortAfterDays < 0) {
            throw new IllegalArgumentException("negative lifecycle length in rule " + id);
        }
    }

    /** Whether the rule expires current versions (by days or by date). */
    public boolean expiresCurrent() {
        return expirationDays > 0 || expirationDate.isPresent();
    }

    /** Whether the rule applies to {@code key}. */
    public boolean matches(String key) {
        return key.startsWith(prefix);
    }
}
