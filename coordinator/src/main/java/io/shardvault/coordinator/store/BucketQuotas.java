package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.BucketUsage;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.s3.ObjectStoreException;
import java.util.concurrent.CompletableFuture;

/**
 * Bucket quotas, enforced (issue #24): a write that would take its bucket's stored bytes past the bucket's
 * quota ({@link Catalog#setBucketQuota}) is refused with {@code QUOTA_EXCEEDED} before any of its bytes is
 * stored. The usage is the catalog's (the sum of the bucket's versions' sizes, kept exact by the commits),
 * read when the write starts; as in MinIO, writes under way at once are each checked against that, so
 * together they can pass the quota by what they carry, and an overwrite is counted in full (its old version
 * is released only at its commit).
 *
 * <p>Thread-safe; never blocks the caller.
 */
final class BucketQuotas {
    private final Catalog catalog;

    BucketQuotas(Catalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Completes when {@code incoming} more bytes fit in the bucket's quota (or it has none), reading its usage;
     * for writes whose access check did not read it already (the copies).
     */
    CompletableFuture<Void> admit(String bucket, long incoming) {
        return catalog.bucketUsage(bucket).thenCompose(read -> admit(read, incoming));
    }

    /** As {@link #admit(String, long)}, against a usage read with the bucket ({@link BucketAccess}). */
    static CompletableFuture<Void> admit(BucketUsage read, long incoming) {
        Usage u = read.usage();
        return u.quotaBytes() == 0 ? CompletableFuture.completedFuture(null) : check(read.bucket().name(), u, incoming);
    }

    private static CompletableFuture<Void> check(String bucket, Usage u, long incoming) {
        if (u.storedBytes() + Math.max(0, incoming) > u.quotaBytes()) {
            return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.QUOTA_EXCEEDED,
                    "bucket " + bucket + " holds " + u.storedBytes() + " bytes of its quota of " + u.quotaBytes()
                            + "; " + incoming + " more would exceed it"));
        }
        return CompletableFuture.completedFuture(null);
    }
}
