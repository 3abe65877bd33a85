package io.shardvault.s3;

import io.shardvault.common.ErrorCode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The storage the S3 server serves: buckets, object versions, listings and multipart uploads.
 * The coordinator implements it over the catalog and the pods; tests use an in-memory one.
 *
 * <p><b>Contract.</b> Every method is asynchronous, may be called from any thread (including Netty
 * event loops, so it must not block the caller: do slow work on the store's own executors), and
 * fails only through its future, with an {@link ObjectStoreException} whose {@link ErrorCode} the
 * S3 edge maps to an S3 error (table on {@link ObjectStoreException}). Any other exception is
 * answered {@code InternalError}. Names arrive validated: bucket names follow the S3 rules, keys
 * are 1..1024 UTF-8 bytes, part numbers 1..10000, max-keys 0..1000.
 *
 * <p><b>Durability.</b> A future that completes successfully means the change is committed and will
 * be seen by every later call (the catalog's reads are linearizable); a failed future means it did
 * not happen, except for {@code TIMEOUT}/{@code CONNECTION_CLOSED}/{@code UNAVAILABLE}, after which
 * it may or may not have.
 *
 * <p><b>Versions.</b> {@code versionId} parameters are {@code null} for "the current version". In a
 * bucket that never had versioning, versions are {@code null} in results. Stores without versioning
 * (issue #9) fail operations naming a version other than {@code "null"} with {@code NOT_IMPLEMENTED}
 * or {@code NO_SUCH_VERSION}.
 *
 * <p><b>Caller.</b> Each call carries the authenticated {@link Caller}; the store decides ownership
 * and permissions ({@code ACCESS_DENIED}). The bucket's owner may do everything; others only what a
 * canned ACL grants them ({@link CannedAcl#grantsRead}, {@link CannedAcl#grantsWrite}): the bucket's
 * ACL for {@link #headBucket}, {@link #listObjects} and {@link #listObjectVersions} (READ) and for
 * {@link #putObject} and {@link #deleteObject} (WRITE), the version's ACL for {@link #getObject} and
 * {@link #headObject} (READ). A {@link Caller#ANONYMOUS} caller reaches only those seven; the
 * bucket's existence is checked first, so a missing bucket is {@code NO_SUCH_BUCKET} for anyone.
 */
public interface ObjectStore {

    // ---- service and buckets

    /** The caller's buckets, by name. */
    CompletableFuture<List<BucketInfo>> listBuckets(Caller caller);

    /**
     * Creates a bucket. {@code BUCKET_ALREADY_OWNED_BY_YOU} when the caller's owner has it,
     * {@code BUCKET_ALREADY_EXISTS} when someone else does.
     *
     * @param region the location constraint, already checked to be the server's region
     * @param objectLockEnabled {@code x-amz-bucket-object-lock-enabled: true} (issue #9); a store
     *     that cannot lock fails with {@code NOT_IMPLEMENTED}
     * @param acl the bucket's canned ACL ({@code x-amz-acl}; {@link CannedAcl#PRIVATE} when none)
     */
    CompletableFuture<BucketInfo> createBucket(Caller caller, String bucket, String region,
                                               boolean objectLockEnabled, CannedAcl acl);

    /** Deletes an empty bucket: {@code NO_SUCH_BUCKET}, {@code BUCKET_NOT_EMPTY}. */
    CompletableFuture<Void> deleteBucket(Caller caller, String bucket);

    /** The bucket, or {@code NO_SUCH_BUCKET}; {@code ACCESS_DENIED} when the caller may not use it. */
    CompletableFuture<BucketInfo> headBucket(Caller caller, String bucket);

    // ---- objects

    /**
     * Stores an object from a streamed body. Read the body to its end before committing (its last
     * read proves integrity; see {@link BodySource}); if the store fails early it must call
     * {@link BodySource#discard()}. The ETag is {@code body.digests().md5Hex()}, the checksum
     * {@code body.digests().checksum()}. Conditions are checked atomically with the commit.
     */
    CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request);

    /**
     * Resolves a version for reading: {@code NO_SUCH_BUCKET}, {@code NO_SUCH_KEY} (no current
     * version, or it is a delete marker), {@code NO_SUCH_VERSION}. The bytes are opened later, for the
     * range the server decides to send.
     */
    CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId);

    /** A version's metadata, as {@link #getObject} resolves it. */
    CompletableFuture<ObjectInfo> headObject(Caller caller, String bucket, String key, String versionId);

    /**
     * Deletes a key (a delete marker when versioned) or one version. Deleting an absent key
     * succeeds. {@code ACCESS_DENIED} for a locked version (issue #9).
     *
     * @param bypassGovernance {@code x-amz-bypass-governance-retention: true}
     */
    CompletableFuture<DeleteResult> deleteObject(Caller caller, String bucket, String key, String versionId,
                                                 boolean bypassGovernance);

    /**
     * DeleteObjects: up to 1,000 deletions, each with its own outcome (the whole call fails only for
     * bucket-level errors such as {@code NO_SUCH_BUCKET}). Outcomes are in request order.
     */
    CompletableFuture<List<DeleteOutcome>> deleteObjects(Caller caller, String bucket, List<ObjectIdentifier> targets,
                                                         boolean bypassGovernance);

    /** CopyObject within or across buckets; the store may share the source's file. */
    CompletableFuture<CopyResult> copyObject(Caller caller, CopyObjectRequest request);

    /** One page of a listing of current versions. */
    CompletableFuture<ListObjectsPage> listObjects(Caller caller, ListObjectsRequest request);

    // ---- multipart

    /** Starts an upload; completes with its id. */
    CompletableFuture<UploadInfo> createMultipartUpload(Caller caller, CreateMultipartUploadRequest request);

    /** Stores a part (replacing one of the same number); same body rules as {@link #putObject}. */
    CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request);

    /** Stores a part copied from (a range of) an existing object. */
    CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request);

    /** Completes an upload into an object version (see {@link CompleteMultipartUploadRequest}). */
    CompletableFuture<WriteResult> completeMultipartUpload(Caller caller, CompleteMultipartUploadRequest request);

    /** Aborts an upload and frees its parts: {@code NO_SUCH_UPLOAD}. */
    CompletableFuture<Void> abortMultipartUpload(Caller caller, String bucket, String key, String uploadId);

    /** One page of an upload's parts. */
    CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId,
                                           int partNumberMarker, int maxParts);

    /** One page of a bucket's in-progress uploads. */
    CompletableFuture<UploadsPage> listMultipartUploads(Caller caller, ListUploadsRequest request);

    // ---- lifecycle rules (issue #24): defaults for stores that do not keep them

    /** GetBucketLifecycleConfiguration: the bucket's, or empty when it has none. The default: {@code NOT_IMPLEMENTED}. */
    default CompletableFuture<Optional<LifecycleConfiguration>> getBucketLifecycle(Caller caller, String bucket) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "lifecycle rules are not implemented"));
    }

    /**
     * PutBucketLifecycleConfiguration (replaces the bucket's) or, with empty, DeleteBucketLifecycle. The
     * default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<Void> putBucketLifecycle(Caller caller, String bucket,
                                                       Optional<LifecycleConfiguration> configuration) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "lifecycle rules are not implemented"));
    }

    // ---- versioning and Object Lock (issue #9): defaults for stores that do not have them yet

    /** GetBucketVersioning. The default: an existing bucket is {@link VersioningStatus#UNVERSIONED}. */
    default CompletableFuture<VersioningStatus> getBucketVersioning(Caller caller, String bucket) {
        return headBucket(caller, bucket).thenApply(b -> VersioningStatus.UNVERSIONED);
    }

    /** PutBucketVersioning (ENABLED or SUSPENDED). The default: {@code NOT_IMPLEMENTED}. */
    default CompletableFuture<Void> putBucketVersioning(Caller caller, String bucket, VersioningStatus status) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "bucket versioning is not implemented"));
    }

    /** One page of ListObjectVersions. The default: {@code NOT_IMPLEMENTED}. */
    default CompletableFuture<VersionsPage> listObjectVersions(Caller caller, ListVersionsRequest request) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "ListObjectVersions is not implemented"));
    }

    /**
     * GetObjectLockConfiguration. The default: whether the bucket was created with Object Lock, no
     * default retention.
     */
    default CompletableFuture<ObjectLockConfiguration> getObjectLockConfiguration(Caller caller, String bucket) {
        return headBucket(caller, bucket).thenApply(b -> b.objectLockEnabled()
                ? new ObjectLockConfiguration(true, null, 0, 0) : ObjectLockConfiguration.DISABLED);
    }

    /**
     * PutObjectLockConfiguration on a bucket created with Object Lock: sets or clears (mode
     * {@code null}) its default retention. The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<Void> putObjectLockConfiguration(Caller caller, String bucket,
                                                               ObjectLockConfiguration configuration) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented"));
    }

    /**
     * PutObjectRetention: sets, extends, shortens or (mode {@code null}) removes one version's
     * retention. COMPLIANCE is never shortened or removed; GOVERNANCE only with
     * {@code bypassGovernance} by a key allowed to ({@code ACCESS_DENIED} otherwise). Only
     * {@code retention.mode()} and {@code retainUntil()} are read. The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<Void> putObjectRetention(Caller caller, String bucket, String key, String versionId,
                                                       ObjectLock retention, boolean bypassGovernance) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented"));
    }

    /** PutObjectLegalHold on one version. The default: {@code NOT_IMPLEMENTED}. */
    default CompletableFuture<Void> putObjectLegalHold(Caller caller, String bucket, String key, String versionId,
                                                       boolean on) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented"));
    }

    // ---- ACLs (issue #17): canned ACLs only, read and changed by the bucket's owner alone

    /**
     * GetBucketAcl: the bucket's owner and canned ACL ({@code NO_SUCH_BUCKET}, {@code ACCESS_DENIED} for
     * anyone but the owner). The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<AccessControl> getBucketAcl(Caller caller, String bucket) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "ACLs are not implemented"));
    }

    /** PutBucketAcl (owner only). The default: {@code NOT_IMPLEMENTED}. */
    default CompletableFuture<Void> putBucketAcl(Caller caller, String bucket, CannedAcl acl) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "ACLs are not implemented"));
    }

    /**
     * GetObjectAcl of a version ({@code versionId} null: the current one), resolved as {@link #headObject}
     * resolves it; owner only. The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<AccessControl> getObjectAcl(Caller caller, String bucket, String key,
                                                          String versionId) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "ACLs are not implemented"));
    }

    /**
     * PutObjectAcl: replaces one version's canned ACL in place (its data, metadata and lock are kept);
     * owner only. The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<Void> putObjectAcl(Caller caller, String bucket, String key, String versionId,
                                                 CannedAcl acl) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "ACLs are not implemented"));
    }

    // ---- capacity (issue #9: SOSAPI's capacity.xml)

    /**
     * Whether {@link #bucketCapacity} answers. A store that does not is served without SOSAPI's
     * {@code capacity.xml}, and {@code system.xml} declares {@code CapacityInfo} false. The default: no.
     */
    default boolean reportsCapacity() {
        return false;
    }

    /**
     * A bucket's capacity, free space and usage in bytes: the cluster's figures, or the bucket's quota
     * when one is set ({@code NO_SUCH_BUCKET}, {@code ACCESS_DENIED} as {@link #headBucket}). May be
     * a few seconds stale. The default: {@code NOT_IMPLEMENTED}.
     */
    default CompletableFuture<BucketCapacity> bucketCapacity(Caller caller, String bucket) {
        return CompletableFuture.failedFuture(
                new ObjectStoreException(ErrorCode.NOT_IMPLEMENTED, "capacity reporting is not implemented"));
    }
}
