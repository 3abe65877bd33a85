package io.shardvault.s3;

import java.time.Instant;
import java.util.Objects;

/**
 * A bucket.
 *
 * @param name the bucket name
 * @param owner the owner's canonical id
 * @param creationDate when it was created
 * @param region its location constraint (the server's region when created without one)
 * @param objectLockEnabled whether it was created with Object Lock (issue #9)
 */
public record BucketInfo(String name, String owner, Instant creationDate, String region,
                         boolean objectLockEnabled) {
    public BucketInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(creationDate, "creationDate");
        Objects.requireNonNull(region, "region");
    }
}
