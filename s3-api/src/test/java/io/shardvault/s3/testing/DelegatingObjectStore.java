package io.shardvault.s3.testing;

import io.shardvault.s3.*;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Forwards every call to another store; tests override what they want to change. */
public class DelegatingObjectStore implements ObjectStore {
    private final ObjectStore delegate;

    public DelegatingObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
        return delegate.listBuckets(caller);
    }

    @Override
    public CompletableFuture<BucketInfo> createBucket(Caller caller, String bucket, String region, boolean objectLockEnabled,
                                                      CannedAcl acl) {
        return delegate.createBucket(caller, bucket, region, objectLockEnabled, acl);
    }

    @Override
    public CompletableFuture<AccessControl> getBucketAcl(Caller caller, String bucket) {
        return delegate.getBucketAcl(caller, bucket);
    }

    @Override
    public CompletableFuture<Void> putBucketAcl(Caller caller, String bucket, CannedAcl acl) {
        return delegate.putBucketAcl(caller, bucket, acl);
    }

    @Override
    public CompletableFuture<AccessControl> getObjectAcl(Caller caller, String bucket, String key, String versionId) {
        return delegate.getObjectAcl(caller, bucket, key, versionId);
    }

    @Override
    public CompletableFuture<Void> putObjectAcl(Caller caller, String bucket, String key, String versionId,
                                                CannedAcl acl) {
        return delegate.putObjectAcl(caller, bucket, key, versionId, acl);
    }

    @Override
    public CompletableFuture<Void> deleteBucket(Caller caller, String bucket) {
        return delegate.deleteBucket(caller, bucket);
    }

    @Override
    public CompletableFuture<BucketInfo> headBucket(Caller caller, String bucket) {
        return delegate.headBucket(caller, bucket);
    }

    @Override
    public CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request) {
        return delegate.putObject(caller, request);
    }

    @Override
    public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId) {
        return delegate.getObject(caller, bucket, key, versionId);
    }

    @Override
    public CompletableFuture<ObjectInfo> headObject(Caller caller, String bucket, String key, String versionId) {
        return delegate.headObject(caller, bucket, key, versionId);
    }

    @Override
    public CompletableFuture<DeleteResult> deleteObject(Caller caller, String bucket, String key, String versionId, boolean bypassGovernance) {
        return delegate.deleteObject(caller, bucket, key, versionId, bypassGovernance);
    }

    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjects(Caller caller, String bucket, List<ObjectIdentifier> targets, boolean bypassGovernance) {
        return delegate.deleteObjects(caller, bucket, targets, bypassGovernance);
    }

    @Override
    public CompletableFuture<CopyResult> copyObject(Caller caller, CopyObjectRequest request) {
        return delegate.copyObject(caller, request);
    }

    @Override
    public CompletableFuture<ListObjectsPage> listObjects(Caller caller, ListObjectsRequest request) {
        return delegate.listObjects(caller, request);
    }

    @Override
    public CompletableFuture<UploadInfo> createMultipartUpload(Caller caller, CreateMultipartUploadRequest request) {
        return delegate.createMultipartUpload(caller, request);
    }

    @Override
    public CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request) {
        return delegate.uploadPart(caller, request);
    }

    @Override
    public CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request) {
        return delegate.uploadPartCopy(caller, request);
    }

    @Override
    public CompletableFuture<WriteResult> completeMultipartUpload(Caller caller, CompleteMultipartUploadRequest request) {
        return delegate.completeMultipartUpload(caller, request);
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(Caller caller, String bucket, String key, String uploadId) {
        return delegate.abortMultipartUpload(caller, bucket, key, uploadId);
    }

    @Override
    public CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        return delegate.listParts(caller, bucket, key, uploadId, partNumberMarker, maxParts);
    }

    @Override
    public CompletableFuture<UploadsPage> listMultipartUploads(Caller caller, ListUploadsRequest request) {
        return delegate.listMultipartUploads(caller, request);
    }

    @Override
    public CompletableFuture<VersioningStatus> getBucketVersioning(Caller caller, String bucket) {
        return delegate.getBucketVersioning(caller, bucket);
    }

    @Override
    public CompletableFuture<Void> putBucketVersioning(Caller caller, String bucket, VersioningStatus status) {
        return delegate.putBucketVersioning(caller, bucket, status);
    }

    @Override
    public CompletableFuture<Optional<LifecycleConfiguration>> getBucketLifecycle(Caller caller, String bucket) {
        return delegate.getBucketLifecycle(caller, bucket);
    }

    @Override
    public CompletableFuture<Void> putBucketLifecycle(Caller caller, String bucket,
                                                      Optional<LifecycleConfiguration> configuration) {
        return delegate.putBucketLifecycle(caller, bucket, configuration);
    }
}
