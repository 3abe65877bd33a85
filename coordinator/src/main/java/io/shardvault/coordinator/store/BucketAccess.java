package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.BucketUsage;
import io.shardvault.coordinator.catalog.BucketVersion;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectStoreException;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Who may do what, the store's one access check. Bucket ownership is by the caller's owner; others get
 * in where the bucket's or the version's canned ACL (kept by name in the catalog) grants them, as
 * {@link io.shardvault.s3.ObjectStore} lists. A refusal is {@code ACCESS_DENIED} naming the bucket.
 *
 * <p>Thread-safe; never blocks the caller.
 */
final class BucketAccess {
    private final Catalog catalog;
    private final Optional<String> rootAccessKeyId;

    /** What a canned ACL lets a caller do with something an owner owns. */
    @FunctionalInterface
    interface AclCheck {
        boolean grants(CannedAcl acl, Caller caller, String owner);
    }

    /**
     * @param rootAccessKeyId the account root's key: it may bypass GOVERNANCE retention, as AWS's root
     *     user may
     */
    BucketAccess(Catalog catalog, Optional<String> rootAccessKeyId) {
        this.catalog = catalog;
        this.rootAccessKeyId = rootAccessKeyId;
    }

    /** The bucket, for its owner only. */
    CompletableFuture<Bucket> owned(Caller caller, String bucket) {
        return owned(caller, bucket, catalog.getBucket(bucket), Function.identity());
    }

    /** The bucket with its usage (one catalog read: what a write checks, owner and quota), for its owner only. */
    CompletableFuture<BucketUsage> ownedWithUsage(Caller caller, String bucket) {
        return owned(caller, bucket, catalog.bucketUsage(bucket), BucketUsage::bucket);
    }

    /** The bucket, for its owner or a caller its ACL grants {@code check}; the ACL is read only for the others. */
    CompletableFuture<Bucket> permitted(Caller caller, String bucket, AclCheck check) {
        return permitted(caller, bucket, check, catalog.getBucket(bucket), Function.identity());
    }

    /** As {@link #permitted}, with the bucket's usage from the same catalog read. */
    CompletableFuture<BucketUsage> permittedWithUsage(Caller caller, String bucket, AclCheck check) {
        return permitted(caller, bucket, check, catalog.bucketUsage(bucket), BucketUsage::bucket);
    }

    private static <T> CompletableFuture<T> owned(Caller caller, String bucket, CompletableFuture<T> read,
                                                  Function<T, Bucket> bucketOf) {
        return read.thenCompose(t -> bucketOf.apply(t).ownerAccessKeyId().equals(caller.owner())
                ? CompletableFuture.completedFuture(t) : denied(bucket));
    }

    private <T> CompletableFuture<T> permitted(Caller caller, String bucket, AclCheck check, CompletableFuture<T> read,
                                               Function<T, Bucket> bucketOf) {
        return read.thenCompose(t -> {
            String owner = bucketOf.apply(t).ownerAccessKeyId();
            return owner.equals(caller.owner()) ? CompletableFuture.completedFuture(t)
                    : bucketAcl(bucket).thenCompose(acl -> check.grants(acl, caller, owner)
                            ? CompletableFuture.completedFuture(t) : denied(bucket));
        });
    }

    CompletableFuture<CannedAcl> bucketAcl(String bucket) {
        return catalog.getBucketAcl(bucket).thenApply(CatalogMapper::cannedAcl);
    }

    /** A version for its bucket's owner, in one catalog read. */
    CompletableFuture<ObjectVersion> ownedVersion(Caller caller, String bucket, String key, String versionId) {
        return owned(caller, bucket, read(bucket, key, versionId), BucketVersion::bucket)
                .thenCompose(pair -> versionOf(pair, key, versionId));
    }

    /**
     * A version for GET and HEAD: the bucket's owner reads any; anyone else one whose ACL grants them READ,
     * and learns that it is missing only when the bucket's ACL lets them list it ({@code ACCESS_DENIED}
     * otherwise, as S3 answers). One catalog read answers the owner; the bucket's ACL is read besides only
     * for another caller asking for what is missing.
     */
    CompletableFuture<ObjectVersion> readableVersion(Caller caller, String bucket, String key, String versionId) {
        return read(bucket, key, versionId).thenCompose(pair -> {
            String owner = pair.bucket().ownerAccessKeyId();
            if (owner.equals(caller.owner())) {
                return versionOf(pair, key, versionId);
            }
            return versionOf(pair, key, versionId).handle((v, failure) -> {
                if (failure == null) {
                    return CatalogMapper.cannedAcl(v.metadata().cannedAcl()).grantsRead(caller, owner)
                            ? CompletableFuture.completedFuture(v) : BucketAccess.<ObjectVersion>denied(bucket);
                }
                return bucketAcl(bucket).thenCompose(acl -> acl.grantsRead(caller, owner)
                        ? CompletableFuture.<ObjectVersion>failedFuture(ShardvaultException.unwrap(failure))
                        : BucketAccess.<ObjectVersion>denied(bucket));
            }).thenCompose(Function.identity());
        });
    }

    private CompletableFuture<BucketVersion> read(String bucket, String key, String versionId) {
        return catalog.bucketVersion(bucket, key, Optional.ofNullable(versionId));
    }

    private static CompletableFuture<ObjectVersion> versionOf(BucketVersion read, String key, String versionId) {
        return read.answer().thenCompose(v -> v.deleteMarker() && versionId == null
                ? CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.NO_SUCH_KEY, key))
                : CompletableFuture.completedFuture(v));
    }

    /**
     * Whether a requested GOVERNANCE bypass is granted (s3:BypassGovernanceRetention): for the root
     * key, and for a key the catalog marks as allowed. A key that may not bypass is treated as not
     * asking, so the catalog refuses what the retention protects with {@code ACCESS_DENIED} naming the
     * permission, as S3 does. COMPLIANCE yields to no one.
     */
    CompletableFuture<Boolean> bypassAllowed(Caller caller, boolean requested) {
        if (!requested) {
            return CompletableFuture.completedFuture(false);
        }
        if (rootAccessKeyId.filter(caller.accessKeyId()::equals).isPresent()) {
            return CompletableFuture.completedFuture(true);
        }
        return catalog.lookupAccessKey(caller.accessKeyId()).handle((k, failure) -> failure == null
                && k.enabled() && k.bypassGovernanceAllowed());
    }

    private static <T> CompletableFuture<T> denied(String bucket) {
        return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.ACCESS_DENIED,
                "Access Denied to bucket " + bucket));
    }
}
