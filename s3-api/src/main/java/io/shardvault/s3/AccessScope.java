package io.shardvault.s3;

import java.util.Objects;
import java.util.Optional;

/**
 * What an access key may reach, whoever owns the buckets: one bucket or all its account's, and writes or
 * only reads (issue #21: what a Veeam repository or a restore-only tool needs). The S3 server enforces it
 * on every operation before the store sees the request, from the route's own read/write property; the
 * store's ownership and ACL checks still apply within it.
 *
 * @param bucket the one bucket the key may name (as the target or as a copy source); empty for any
 * @param readOnly whether the key is refused every operation that changes something
 */
public record AccessScope(Optional<String> bucket, boolean readOnly) {
    /** No restriction beyond ownership. */
    public static final AccessScope FULL = new AccessScope(Optional.empty(), false);

    public AccessScope {
        Objects.requireNonNull(bucket, "bucket");
        bucket.ifPresent(b -> {
            if (b.isBlank()) {
                throw new IllegalArgumentException("a bucket scope names a bucket");
            }
        });
    }

    /** Whether the key may name this bucket. */
    public boolean allowsBucket(String name) {
        return bucket.isEmpty() || bucket.get().equals(name);
    }

    /** Whether this scope restricts anything. */
    public boolean restricted() {
        return bucket.isPresent() || readOnly;
    }
}
