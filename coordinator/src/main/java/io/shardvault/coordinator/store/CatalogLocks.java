package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Object Lock over the catalog: a bucket's lock configuration (its default retention), a version's
 * retention and legal hold; the bucket's owner only. The catalog checks the locks, atomically with
 * each change. Failures are the catalog's; {@link CatalogObjectStore} translates them.
 *
 * <p>Thread-safe; never blocks the caller.
 */
record CatalogLocks(Catalog catalog, BucketAccess access) {

    CompletableFuture<ObjectLockConfiguration> configuration(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenApply(CatalogMapper::lockConfiguration);
    }

    /**
     * The catalog keeps a default retention in days, so a rule given in years is stored as 365 days
     * a year (S3's own rule for years) and read back in days.
     */
    CompletableFuture<Void> setConfiguration(Caller caller, String bucket, ObjectLockConfiguration configuration) {
        int days = configuration.defaultDays() + 365 * configuration.defaultYears();
        return access.owned(caller, bucket).thenCompose(b -> catalog.setDefaultRetention(bucket,
                Optional.ofNullable(configuration.defaultMode()).map(CatalogMapper::toCatalog), days))
                .thenApply(b -> null);
    }

    /** {@code bypassGovernance} counts only when the caller may bypass ({@link BucketAccess#bypassAllowed}). */
    CompletableFuture<Void> setRetention(Caller caller, String bucket, String key, String versionId,
                                         ObjectLock retention, boolean bypassGovernance) {
        return access.owned(caller, bucket).thenCompose(b -> access.bypassAllowed(caller, bypassGovernance))
                .thenCompose(bypass -> catalog.setRetention(bucket, key, Optional.ofNullable(versionId),
                        CatalogMapper.retention(retention), bypass)).thenApply(v -> null);
    }

    CompletableFuture<Void> setLegalHold(Caller caller, String bucket, String key, String versionId, boolean on) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.setLegalHold(bucket, key,
                Optional.ofNullable(versionId), on)).thenApply(v -> null);
    }
}
