package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.lifecycle.StoredLifecycle;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.LifecycleConfiguration;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.VersioningStatus;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Buckets over the catalog: create, delete, head, list, their ACL, versioning and capacity (SOSAPI).
 * Failures are the catalog's; {@link CatalogObjectStore} translates them.
 *
 * <p>Thread-safe; never blocks the caller.
 *
 * @param region    the region every bucket is in ({@code s3.region})
 * @param freeSpace the cluster's free space, or {@code null} when the store does not report capacity
 */
record CatalogBuckets(Catalog catalog, BucketAccess access, String region, FreeSpace freeSpace) {

    CompletableFuture<List<BucketInfo>> list(Caller caller) {
        return catalog.listBuckets().thenApply(buckets -> buckets.stream()
                .filter(b -> b.ownerAccessKeyId().equals(caller.owner())).map(this::info).toList());
    }

    /** A name the caller already owns is {@code BUCKET_ALREADY_OWNED_BY_YOU}; another owner's, {@code BUCKET_ALREADY_EXISTS}. */
    CompletableFuture<BucketInfo> create(Caller caller, String bucket, boolean objectLockEnabled, CannedAcl acl) {
        CompletableFuture<BucketInfo> created = catalog.createBucket(bucket, caller.owner(), objectLockEnabled,
                acl.headerValue()).thenApply(this::info);
        return StoreErrors.map(created).exceptionallyCompose(failure -> {
            Throwable cause = ShardvaultException.unwrap(failure);
            if (cause instanceof ObjectStoreException e && e.code() == ErrorCode.BUCKET_ALREADY_EXISTS) {
                return catalog.getBucket(bucket).thenCompose(b -> CompletableFuture.<BucketInfo>failedFuture(
                        b.ownerAccessKeyId().equals(caller.owner())
                                ? new ObjectStoreException(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU, e.getMessage())
                                : e));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    CompletableFuture<Void> delete(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.deleteBucket(bucket));
    }

    CompletableFuture<BucketInfo> head(Caller caller, String bucket) {
        return access.permitted(caller, bucket, CannedAcl::grantsRead).thenApply(this::info);
    }

    CompletableFuture<AccessControl> acl(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenCompose(b -> access.bucketAcl(bucket)
                .thenApply(acl -> new AccessControl(b.ownerAccessKeyId(), acl)));
    }

    CompletableFuture<Void> setAcl(Caller caller, String bucket, CannedAcl acl) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.setBucketAcl(bucket, acl.headerValue()));
    }

    CompletableFuture<VersioningStatus> versioning(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenApply(CatalogMapper::versioning);
    }

    CompletableFuture<Void> setVersioning(Caller caller, String bucket, VersioningStatus status) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.setVersioning(bucket,
                CatalogMapper.versioningState(status))).thenApply(b -> null);
    }

    /** The catalog keeps the document as the S3 layer wrote it, which reads back as it was validated. */
    CompletableFuture<Optional<LifecycleConfiguration>> lifecycle(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenCompose(b -> StoredLifecycle.read(catalog, bucket));
    }

    CompletableFuture<Void> setLifecycle(Caller caller, String bucket, Optional<LifecycleConfiguration> configuration) {
        return access.owned(caller, bucket).thenCompose(b -> StoredLifecycle.write(catalog, bucket, configuration));
    }

    boolean reportsCapacity() {
        return freeSpace != null;
    }

    /**
     * Without a quota, the cluster's figures: Used is the bytes of every live file (the catalog's
     * count), Available the pods' free space in object bytes ({@link FreeSpace}), Capacity their sum.
     * With a quota, the bucket's: Capacity is the quota, Used the bucket's stored bytes, Available
     * what is left of the quota, and never more than the cluster can still take. Only called when
     * {@link #reportsCapacity()}.
     */
    CompletableFuture<BucketCapacity> capacity(Caller caller, String bucket) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.usage(Optional.of(bucket)))
                .thenCompose(bucketUsage -> freeSpace.availableBytes().thenCompose(free -> {
                    long available = Math.max(0, free);
                    if (bucketUsage.quotaBytes() > 0) {
                        long quota = bucketUsage.quotaBytes();
                        long used = bucketUsage.storedBytes();
                        return CompletableFuture.completedFuture(new BucketCapacity(quota,
                                Math.max(0, Math.min(quota - used, available)), used));
                    }
                    return catalog.usage(Optional.empty()).thenApply(cluster -> {
                        long used = cluster.storedBytes();
                        long capacity = used > Long.MAX_VALUE - available ? Long.MAX_VALUE : used + available;
                        return new BucketCapacity(capacity, available, used);
                    });
                }));
    }

    private BucketInfo info(Bucket b) {
        return CatalogMapper.bucketInfo(b, region);
    }
}
