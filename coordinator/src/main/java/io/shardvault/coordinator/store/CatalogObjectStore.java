package io.shardvault.coordinator.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopyResult;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.DeleteResult;
import io.shardvault.s3.LifecycleConfiguration;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.PartsPage;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.UploadsPage;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.WriteResult;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static io.shardvault.coordinator.store.StoreErrors.map;

/**
 * The S3 layer's storage, over the catalog and the data paths: a facade over one store per subject.
 *
 * <ul>
 *   <li><b>Writes</b> (PutObject, UploadPart, copies): the bytes go through the write path to a new
 *       file; only after its quorum, and after the body's last read vouched for it, is the version
 *       or part committed to the catalog. A commit that fails (a condition, a vanished bucket or
 *       upload) deletes the new file's shards at once; a commit of unknown outcome (a timeout, a leader
 *       change) leaves them, as it may still land ({@link FileCommits}).</li>
 *   <li><b>Reads</b> resolve the version in the catalog (linearizable) and open the data paths on
 *       the range asked, part after part.</li>
 *   <li><b>Deletes</b> change the catalog only; the files it releases are queued there and the
 *       {@link FileReaper} deletes their shards.</li>
 * </ul>
 *
 * <table>
 *   <caption>Where each part lives</caption>
 *   <tr><th>class</th><th>holds</th></tr>
 *   <tr><td>{@link CatalogBuckets}</td><td>buckets, their ACL, versioning and capacity</td></tr>
 *   <tr><td>{@link CatalogObjects}</td><td>objects, their ACL, deletes, copies, listings</td></tr>
 *   <tr><td>{@link CatalogUploads}</td><td>multipart uploads</td></tr>
 *   <tr><td>{@link CatalogLocks}</td><td>Object Lock: configuration, retention, legal hold</td></tr>
 *   <tr><td>{@link CatalogMapper}</td><td>every conversion between S3 and catalog types</td></tr>
 *   <tr><td>{@link BucketAccess}</td><td>ownership, ACL grants, the GOVERNANCE bypass</td></tr>
 *   <tr><td>{@link FileCommits}</td><td>commit-or-delete of new files, waking the reaper</td></tr>
 *   <tr><td>{@link StoreErrors}</td><td>the error translation, applied here to every call</td></tr>
 * </table>
 * Bucket ownership is by the caller's owner; others get in where the bucket's or the version's canned ACL
 * (kept by name in the catalog) grants them, as {@link ObjectStore} lists. Catalog and data-path failures keep
 * their stable codes (the S3 edge maps them); an unknown failure becomes {@code INTERNAL}.
 *
 * <p>Thread-safe; never blocks the caller.
 */
public final class CatalogObjectStore implements ObjectStore {
    /** S3's smallest part but the last. */
    public static final long MIN_PART_BYTES = 5L << 20;

    private final CatalogBuckets buckets;
    private final CatalogObjects objects;
    private final CatalogUploads uploads;
    private final CatalogLocks locks;

    /**
     * A store that does not report capacity.
     *
     * @param reaper       woken after deletes so released shards go soon (may be null)
     * @param minPartBytes the smallest multipart part but the last ({@link #MIN_PART_BYTES} in production)
     * @param region       the S3 endpoint's region ({@code s3.region}): every bucket's, as HeadBucket and
     *                     GetBucketLocation tell it
     */
    public CatalogObjectStore(Catalog catalog, DataPath data, FileReaper reaper, long minPartBytes, String region) {
        this(catalog, data, reaper, minPartBytes, region, null, Optional.empty(), new SimpleMeterRegistry());
    }

    /**
     * @param region the region buckets are in ({@code s3.region})
     * @param freeSpace the cluster's free space, for SOSAPI's capacity.xml; {@code null} for a store
     *     that does not report capacity
     * @param rootAccessKeyId the account root's key (the coordinator's bootstrap key, not kept in the
     *     catalog): it holds every permission a catalog key can be granted, as AWS's root user does
     * @param registry where the store's meters go ({@code shardvault.store.*})
     */
    public CatalogObjectStore(Catalog catalog, DataPath data, FileReaper reaper, long minPartBytes, String region,
                              FreeSpace freeSpace, Optional<String> rootAccessKeyId, MeterRegistry registry) {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(rootAccessKeyId, "rootAccessKeyId");
        BucketAccess access = new BucketAccess(catalog, rootAccessKeyId);
        FileCommits commits = new FileCommits(data, reaper, registry);
        this.buckets = new CatalogBuckets(catalog, access, region, freeSpace);
        BucketQuotas quotas = new BucketQuotas(catalog);
        this.objects = new CatalogObjects(catalog, data, access, quotas, commits);
        this.uploads = new CatalogUploads(catalog, data, access, quotas, commits, minPartBytes);
        this.locks = new CatalogLocks(catalog, access);
    }

    // ---- buckets

    @Override
    public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
        return map(buckets.list(caller));
    }

    @Override
    public CompletableFuture<BucketInfo> createBucket(Caller caller, String bucket, String region,
                                                      boolean objectLockEnabled, CannedAcl acl) {
        return map(buckets.create(caller, bucket, objectLockEnabled, acl));
    }

    @Override
    public CompletableFuture<Void> deleteBucket(Caller caller, String bucket) {
        return map(buckets.delete(caller, bucket));
    }

    @Override
    public CompletableFuture<BucketInfo> headBucket(Caller caller, String bucket) {
        return map(buckets.head(caller, bucket));
    }

    @Override
    public CompletableFuture<AccessControl> getBucketAcl(Caller caller, String bucket) {
        return map(buckets.acl(caller, bucket));
    }

    @Override
    public CompletableFuture<Void> putBucketAcl(Caller caller, String bucket, CannedAcl acl) {
        return map(buckets.setAcl(caller, bucket, acl));
    }

    @Override
    public CompletableFuture<VersioningStatus> getBucketVersioning(Caller caller, String bucket) {
        return map(buckets.versioning(caller, bucket));
    }

    @Override
    public CompletableFuture<Void> putBucketVersioning(Caller caller, String bucket, VersioningStatus status) {
        return map(buckets.setVersioning(caller, bucket, status));
    }

    @Override
    public CompletableFuture<Optional<LifecycleConfiguration>> getBucketLifecycle(Caller caller, String bucket) {
        return map(buckets.lifecycle(caller, bucket));
    }

    @Override
    public CompletableFuture<Void> putBucketLifecycle(Caller caller, String bucket,
                                                      Optional<LifecycleConfiguration> configuration) {
        return map(buckets.setLifecycle(caller, bucket, configuration));
    }

    @Override
    public boolean reportsCapacity() {
        return buckets.reportsCapacity();
    }

    @Override
    public CompletableFuture<BucketCapacity> bucketCapacity(Caller caller, String bucket) {
        return buckets.reportsCapacity() ? map(buckets.capacity(caller, bucket))
                : ObjectStore.super.bucketCapacity(caller, bucket);
    }

    // ---- object lock

    @Override
    public CompletableFuture<ObjectLockConfiguration> getObjectLockConfiguration(Caller caller, String bucket) {
        return map(locks.configuration(caller, bucket));
    }

    @Override
    public CompletableFuture<Void> putObjectLockConfiguration(Caller caller, String bucket,
                                                              ObjectLockConfiguration configuration) {
        return map(locks.setConfiguration(caller, bucket, configuration));
    }

    @Override
    public CompletableFuture<Void> putObjectRetention(Caller caller, String bucket, String key, String versionId,
                                                      ObjectLock retention, boolean bypassGovernance) {
        return map(locks.setRetention(caller, bucket, key, versionId, retention, bypassGovernance));
    }

    @Override
    public CompletableFuture<Void> putObjectLegalHold(Caller caller, String bucket, String key, String versionId,
                                                      boolean on) {
        return map(locks.setLegalHold(caller, bucket, key, versionId, on));
    }

    // ---- objects

    @Override
    public CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request) {
        return map(objects.put(caller, request));
    }

    @Override
    public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId) {
        return map(objects.get(caller, bucket, key, versionId));
    }

    @Override
    public CompletableFuture<ObjectInfo> headObject(Caller caller, String bucket, String key, String versionId) {
        return map(objects.head(caller, bucket, key, versionId));
    }

    @Override
    public CompletableFuture<AccessControl> getObjectAcl(Caller caller, String bucket, String key, String versionId) {
        return map(objects.acl(caller, bucket, key, versionId));
    }

    @Override
    public CompletableFuture<Void> putObjectAcl(Caller caller, String bucket, String key, String versionId,
                                                CannedAcl acl) {
        return map(objects.setAcl(caller, bucket, key, versionId, acl));
    }

    @Override
    public CompletableFuture<DeleteResult> deleteObject(Caller caller, String bucket, String key, String versionId,
                                                        boolean bypassGovernance) {
        return map(objects.delete(caller, bucket, key, versionId, bypassGovernance));
    }

    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjects(Caller caller, String bucket,
                                                                List<ObjectIdentifier> targets,
                                                                boolean bypassGovernance) {
        return map(objects.delete(caller, bucket, targets, bypassGovernance));
    }

    @Override
    public CompletableFuture<CopyResult> copyObject(Caller caller, CopyObjectRequest request) {
        return map(objects.copy(caller, request));
    }

    @Override
    public CompletableFuture<ListObjectsPage> listObjects(Caller caller, ListObjectsRequest request) {
        return map(objects.list(caller, request));
    }

    @Override
    public CompletableFuture<VersionsPage> listObjectVersions(Caller caller, ListVersionsRequest request) {
        return map(objects.listVersions(caller, request));
    }

    // ---- multipart

    @Override
    public CompletableFuture<UploadInfo> createMultipartUpload(Caller caller, CreateMultipartUploadRequest request) {
        return map(uploads.create(caller, request));
    }

    @Override
    public CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request) {
        return map(uploads.uploadPart(caller, request));
    }

    @Override
    public CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request) {
        return map(uploads.uploadPartCopy(caller, request));
    }

    @Override
    public CompletableFuture<WriteResult> completeMultipartUpload(Caller caller,
                                                                  CompleteMultipartUploadRequest request) {
        return map(uploads.complete(caller, request));
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(Caller caller, String bucket, String key, String uploadId) {
        return map(uploads.abort(caller, bucket, key, uploadId));
    }

    @Override
    public CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId,
                                                  int partNumberMarker, int maxParts) {
        return map(uploads.listParts(caller, bucket, key, uploadId, partNumberMarker, maxParts));
    }

    @Override
    public CompletableFuture<UploadsPage> listMultipartUploads(Caller caller, ListUploadsRequest request) {
        return map(uploads.list(caller, request));
    }
}
