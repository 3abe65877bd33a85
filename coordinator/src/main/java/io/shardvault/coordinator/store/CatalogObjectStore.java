package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.DataPathException;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumCalculator;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopyResult;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.DeleteResult;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.MetadataDirective;
import io.shardvault.s3.MultipartChecksums;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectRange;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.PartsPage;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.UploadsPage;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.VersionSummary;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.WriteCondition;
import io.shardvault.s3.WriteResult;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The S3 layer's storage, over the catalog and the data paths.
 *
 * <ul>
 *   <li><b>Writes</b> (PutObject, UploadPart, copies): the bytes go through the write path to a new
 *       file; only after its quorum, and after the body's last read vouched for it, is the version
 *       or part committed to the catalog. A commit that fails (a condition, a vanished bucket or
 *       upload) deletes the new file's shards at once; a commit of unknown outcome (a timeout, a leader
 *       change) leaves them, as it may still land ({@link FailedCommits}).</li>
 *   <li><b>Reads</b> resolve the version in the catalog (linearizable) and open the data paths on
 *       the range asked, part after part.</li>
 *   <li><b>Deletes</b> change the catalog only; the files it releases are queued there and the
 *       {@link FileReaper} deletes their shards.</li>
 * </ul>
 * Bucket ownership is by the caller's owner; others get in where the bucket's or the version's canned ACL
 * (kept by name in the catalog) grants them, as {@link ObjectStore} lists. Catalog and data-path failures keep their stable codes
 * (the S3 edge maps them); an unknown failure becomes {@code INTERNAL}.
 *
 * <p>Thread-safe; never blocks the caller.
 */
public final class CatalogObjectStore implements ObjectStore {
    /** S3's smallest part but the last. */
    public static final long MIN_PART_BYTES = 5L << 20;

    private final Catalog catalog;
    private final DataPath data;
    private final FileReaper reaper;
    private final FailedCommits failedCommits;
    private final long minPartBytes;
    private final String region;
    private final FreeSpace freeSpace;
    private final Optional<String> rootAccessKeyId;

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
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.data = Objects.requireNonNull(data, "data");
        this.reaper = reaper;
        this.minPartBytes = minPartBytes;
        this.region = Objects.requireNonNull(region, "region");
        this.freeSpace = freeSpace;
        this.rootAccessKeyId = Objects.requireNonNull(rootAccessKeyId, "rootAccessKeyId");
        this.failedCommits = new FailedCommits(data, registry);
    }

    // ---- buckets

    @Override
    public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
        return map(catalog.listBuckets().thenApply(buckets -> buckets.stream()
                .filter(b -> b.ownerAccessKeyId().equals(caller.owner())).map(this::bucketInfo).toList()));
    }

    @Override
    public CompletableFuture<BucketInfo> createBucket(Caller caller, String bucket, String region,
                                                      boolean objectLockEnabled, CannedAcl acl) {
        CompletableFuture<BucketInfo> created = catalog.createBucket(bucket, caller.owner(), objectLockEnabled,
                acl.headerValue()).thenApply(this::bucketInfo);
        return map(created).exceptionallyCompose(failure -> {
            Throwable cause = unwrap(failure);
            if (cause instanceof ObjectStoreException e && e.code() == ErrorCode.BUCKET_ALREADY_EXISTS) {
                return catalog.getBucket(bucket).thenCompose(b -> CompletableFuture.<BucketInfo>failedFuture(
                        b.ownerAccessKeyId().equals(caller.owner())
                                ? new ObjectStoreException(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU, e.getMessage())
                                : e));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    @Override
    public CompletableFuture<Void> deleteBucket(Caller caller, String bucket) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.deleteBucket(bucket)));
    }

    @Override
    public CompletableFuture<BucketInfo> headBucket(Caller caller, String bucket) {
        return map(permitted(caller, bucket, CannedAcl::grantsRead).thenApply(this::bucketInfo));
    }

    @Override
    public CompletableFuture<AccessControl> getBucketAcl(Caller caller, String bucket) {
        return map(owned(caller, bucket).thenCompose(b -> bucketAcl(bucket)
                .thenApply(acl -> new AccessControl(b.ownerAccessKeyId(), acl))));
    }

    @Override
    public CompletableFuture<Void> putBucketAcl(Caller caller, String bucket, CannedAcl acl) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.setBucketAcl(bucket, acl.headerValue())));
    }

    @Override
    public CompletableFuture<AccessControl> getObjectAcl(Caller caller, String bucket, String key, String versionId) {
        return map(owned(caller, bucket).thenCompose(b -> version(caller, bucket, key, versionId)
                .thenApply(v -> new AccessControl(b.ownerAccessKeyId(), cannedAcl(v.metadata().cannedAcl())))));
    }

    @Override
    public CompletableFuture<Void> putObjectAcl(Caller caller, String bucket, String key, String versionId,
                                                CannedAcl acl) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.setObjectAcl(bucket, key,
                Optional.ofNullable(versionId), acl.headerValue())).thenApply(v -> null));
    }

    private CompletableFuture<CannedAcl> bucketAcl(String bucket) {
        return catalog.getBucketAcl(bucket).thenApply(CatalogObjectStore::cannedAcl);
    }

    /** A stored ACL name; one this build does not know grants nothing beyond the owner. */
    private static CannedAcl cannedAcl(String name) {
        CannedAcl acl = CannedAcl.fromHeader(name);
        return acl == null ? CannedAcl.PRIVATE : acl;
    }

    @Override
    public CompletableFuture<VersioningStatus> getBucketVersioning(Caller caller, String bucket) {
        return map(owned(caller, bucket).thenApply(b -> VersioningStatus.valueOf(b.versioning().name())));
    }

    @Override
    public CompletableFuture<Void> putBucketVersioning(Caller caller, String bucket, VersioningStatus status) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.setVersioning(bucket,
                VersioningState.valueOf(status.name()))).thenApply(b -> null));
    }

    @Override
    public CompletableFuture<ObjectLockConfiguration> getObjectLockConfiguration(Caller caller, String bucket) {
        return map(owned(caller, bucket).thenApply(b -> !b.objectLockEnabled() ? ObjectLockConfiguration.DISABLED
                : b.defaultRetentionMode().map(m -> new ObjectLockConfiguration(true,
                        RetentionMode.valueOf(m.name()), b.defaultRetentionDays(), 0))
                        .orElse(new ObjectLockConfiguration(true, null, 0, 0))));
    }

    /**
     * The catalog keeps a default retention in days, so a rule given in years is stored as 365 days
     * a year (S3's own rule for years) and read back in days.
     */
    @Override
    public CompletableFuture<Void> putObjectLockConfiguration(Caller caller, String bucket,
                                                              ObjectLockConfiguration configuration) {
        int days = configuration.defaultDays() + 365 * configuration.defaultYears();
        return map(owned(caller, bucket).thenCompose(b -> catalog.setDefaultRetention(bucket,
                Optional.ofNullable(configuration.defaultMode())
                        .map(m -> io.shardvault.coordinator.catalog.RetentionMode.valueOf(m.name())), days))
                .thenApply(b -> null));
    }

    @Override
    public CompletableFuture<Void> putObjectRetention(Caller caller, String bucket, String key, String versionId,
                                                      ObjectLock retention, boolean bypassGovernance) {
        return map(owned(caller, bucket).thenCompose(b -> bypassAllowed(caller, bypassGovernance))
                .thenCompose(bypass -> catalog.setRetention(bucket, key, Optional.ofNullable(versionId),
                        retention(retention), bypass)).thenApply(v -> null));
    }

    @Override
    public CompletableFuture<Void> putObjectLegalHold(Caller caller, String bucket, String key, String versionId,
                                                      boolean on) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.setLegalHold(bucket, key,
                Optional.ofNullable(versionId), on)).thenApply(v -> null));
    }

    /**
     * Whether a requested GOVERNANCE bypass is granted (s3:BypassGovernanceRetention): for the root
     * key, and for a key the catalog marks as allowed. A key that may not bypass is treated as not
     * asking, so the catalog refuses what the retention protects with {@code ACCESS_DENIED} naming the
     * permission, as S3 does. COMPLIANCE yields to no one.
     */
    private CompletableFuture<Boolean> bypassAllowed(Caller caller, boolean requested) {
        if (!requested) {
            return CompletableFuture.completedFuture(false);
        }
        if (rootAccessKeyId.filter(caller.accessKeyId()::equals).isPresent()) {
            return CompletableFuture.completedFuture(true);
        }
        return catalog.lookupAccessKey(caller.accessKeyId()).handle((k, failure) -> failure == null
                && k.enabled() && k.bypassGovernanceAllowed());
    }

    private CompletableFuture<Bucket> owned(Caller caller, String bucket) {
        return catalog.getBucket(bucket).thenCompose(b -> b.ownerAccessKeyId().equals(caller.owner())
                ? CompletableFuture.completedFuture(b) : denied(bucket));
    }

    private static <T> CompletableFuture<T> denied(String bucket) {
        return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.ACCESS_DENIED,
                "Access Denied to bucket " + bucket));
    }

    /** What a canned ACL lets a caller do with something an owner owns. */
    @FunctionalInterface
    private interface AclCheck {
        boolean grants(CannedAcl acl, Caller caller, String owner);
    }

    /** The bucket, for its owner or a caller its ACL grants {@code check}; the ACL is read only for the others. */
    private CompletableFuture<Bucket> permitted(Caller caller, String bucket, AclCheck check) {
        return catalog.getBucket(bucket).thenCompose(b -> b.ownerAccessKeyId().equals(caller.owner())
                ? CompletableFuture.completedFuture(b)
                : bucketAcl(bucket).thenCompose(acl -> check.grants(acl, caller, b.ownerAccessKeyId())
                        ? CompletableFuture.completedFuture(b) : denied(bucket)));
    }

    // ---- capacity (SOSAPI)

    @Override
    public boolean reportsCapacity() {
        return freeSpace != null;
    }

    /**
     * Without a quota, the cluster's figures: Used is the bytes of every live file (the catalog's
     * count), Available the pods' free space in object bytes ({@link FreeSpace}), Capacity their sum.
     * With a quota, the bucket's: Capacity is the quota, Used the bucket's stored bytes, Available
     * what is left of the quota, and never more than the cluster can still take.
     */
    @Override
    public CompletableFuture<BucketCapacity> bucketCapacity(Caller caller, String bucket) {
        if (freeSpace == null) {
            return ObjectStore.super.bucketCapacity(caller, bucket);
        }
        return map(owned(caller, bucket).thenCompose(b -> catalog.usage(Optional.of(bucket)))
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
                })));
    }

    // ---- objects

    @Override
    public CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request) {
        BodySource body = request.body();
        // The ownership read (a linearizable catalog read, milliseconds through Raft) and the write
        // run side by side instead of one after the other: the check is the same read as before and
        // still completes before the commit, which re-reads the bucket inside the state machine, so
        // a deleted bucket refuses the version either way. A refused caller's body is cut off at its
        // next read and whatever was written is deleted (issue #11: the read cost every PUT its wait).
        BodyByteSource source = new BodyByteSource(body);
        CompletableFuture<Bucket> ownership = permitted(caller, request.bucket(), CannedAcl::grantsWrite);
        ownership.whenComplete((b, refused) -> {
            if (refused != null) {
                source.abort(unwrap(refused));
            }
        });
        // An unsigned caller's bytes go nowhere before its ACL lets it write (issue #17).
        CompletableFuture<StoredFile> written = caller.isAnonymous()
                ? ownership.thenCompose(b -> data.write(source)) : data.write(source);
        return map(ownership.handle((b, refused) -> refused)
                .thenCompose(refused -> written.handle((file, failure) -> {
                    if (refused != null) {
                        if (file != null) {
                            data.delete(file);
                        }
                        return CompletableFuture.<StoredFile>failedFuture(unwrap(refused));
                    }
                    return failure == null ? CompletableFuture.completedFuture(file)
                            : CompletableFuture.<StoredFile>failedFuture(unwrap(failure));
                }).thenCompose(Function.identity()))
                .whenComplete((f, failure) -> {
                    if (failure != null) {
                        body.discard();
                    }
                })
                .thenCompose(file -> {
                    String etag = body.digests().md5Hex();
                    Checksum checksum = body.digests().checksum();
                    PutObjectVersion put = new PutObjectVersion(request.bucket(), request.key(), file.size(), etag,
                            toCatalog(request.metadata(), checksum).withCannedAcl(request.acl().headerValue()),
                            List.of(new FilePart(0, etag, StoredFiles.toRef(file))), condition(request.condition()),
                            retention(request.lock()), request.lock().legalHold());
                    return commitOrDelete(file, catalog.putObjectVersion(put)).thenApply(r -> {
                        wakeReaper(r.releasedFiles());
                        return new WriteResult(r.etag(), versionOrNull(r.versionId()), r.lastModified(), checksum,
                                file.size());
                    });
                }));
    }

    @Override
    public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId) {
        return map(readableVersion(caller, bucket, key, versionId).thenApply(v -> new StoredObject() {
            @Override
            public ObjectInfo info() {
                return objectInfo(v);
            }

            @Override
            public ObjectContent open(long offset, long length) {
                return new PartsContent(data, v.parts(), offset, length);
            }

            @Override
            public Optional<ObjectRange> part(int partNumber) {
                List<Long> sizes = v.parts().stream().map(p -> p.file().size()).toList();
                return StoredObject.partOf(sizes.isEmpty() ? List.of(0L) : sizes, partNumber);
            }
        }));
    }

    @Override
    public CompletableFuture<ObjectInfo> headObject(Caller caller, String bucket, String key, String versionId) {
        return map(readableVersion(caller, bucket, key, versionId).thenApply(CatalogObjectStore::objectInfo));
    }

    /** A version for its bucket's owner. */
    private CompletableFuture<ObjectVersion> version(Caller caller, String bucket, String key, String versionId) {
        return owned(caller, bucket).thenCompose(b -> lookUp(bucket, key, versionId));
    }

    private CompletableFuture<ObjectVersion> lookUp(String bucket, String key, String versionId) {
        return catalog.getObjectVersion(bucket, key, Optional.ofNullable(versionId))
                .thenCompose(v -> v.deleteMarker() && versionId == null
                        ? CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.NO_SUCH_KEY, key))
                        : CompletableFuture.completedFuture(v));
    }

    /**
     * A version for GET and HEAD: the bucket's owner reads any; anyone else one whose ACL grants them READ,
     * and learns that it is missing only when the bucket's ACL lets them list it ({@code ACCESS_DENIED}
     * otherwise, as S3 answers).
     */
    private CompletableFuture<ObjectVersion> readableVersion(Caller caller, String bucket, String key,
                                                             String versionId) {
        return catalog.getBucket(bucket).thenCompose(b -> {
            String owner = b.ownerAccessKeyId();
            if (owner.equals(caller.owner())) {
                return lookUp(bucket, key, versionId);
            }
            return lookUp(bucket, key, versionId).handle((v, failure) -> {
                if (failure == null) {
                    return cannedAcl(v.metadata().cannedAcl()).grantsRead(caller, owner)
                            ? CompletableFuture.completedFuture(v) : CatalogObjectStore.<ObjectVersion>denied(bucket);
                }
                return bucketAcl(bucket).thenCompose(acl -> acl.grantsRead(caller, owner)
                        ? CompletableFuture.<ObjectVersion>failedFuture(unwrap(failure))
                        : CatalogObjectStore.<ObjectVersion>denied(bucket));
            }).thenCompose(Function.identity());
        });
    }

    @Override
    public CompletableFuture<DeleteResult> deleteObject(Caller caller, String bucket, String key, String versionId,
                                                        boolean bypassGovernance) {
        return map(permitted(caller, bucket, CannedAcl::grantsWrite)
                .thenCompose(b -> bypassAllowed(caller, bypassGovernance))
                .thenCompose(bypass -> catalog.deleteObject(new io.shardvault.coordinator.catalog.DeleteObjectVersion(
                        bucket, key, Optional.ofNullable(versionId), bypass))).thenApply(r -> {
                            wakeReaper(r.releasedFiles());
                            return new DeleteResult(key, r.versionId().map(CatalogObjectStore::versionOrNull)
                                    .orElse(null), r.deleteMarker());
                        }));
    }

    /**
     * DeleteObjects as one catalog batch: up to {@link Catalog#MAX_BATCH} deletes in one Raft entry,
     * each checked against its version's lock atomically with its delete (a locked version is
     * refused on its own, the others still go). Larger lists are split into such batches, in order.
     */
    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjects(Caller caller, String bucket,
                                                                List<ObjectIdentifier> targets,
                                                                boolean bypassGovernance) {
        if (targets.isEmpty()) {
            return map(owned(caller, bucket).thenApply(b -> List.of()));
        }
        return map(owned(caller, bucket).thenCompose(b -> bypassAllowed(caller, bypassGovernance))
                .thenCompose(bypass -> {
                    CompletableFuture<List<DeleteOutcome>> all = CompletableFuture.completedFuture(new ArrayList<>());
                    for (int from = 0; from < targets.size(); from += Catalog.MAX_BATCH) {
                        List<ObjectIdentifier> batch = targets.subList(from,
                                Math.min(targets.size(), from + Catalog.MAX_BATCH));
                        all = all.thenCompose(done -> deleteBatch(bucket, batch, bypass).thenApply(outcomes -> {
                            done.addAll(outcomes);
                            return done;
                        }));
                    }
                    return all.thenApply(List::copyOf);
                }));
    }

    private CompletableFuture<List<DeleteOutcome>> deleteBatch(String bucket, List<ObjectIdentifier> batch,
                                                               boolean bypass) {
        List<io.shardvault.coordinator.catalog.DeleteObjectVersion> requests = new ArrayList<>();
        for (ObjectIdentifier t : batch) {
            requests.add(new io.shardvault.coordinator.catalog.DeleteObjectVersion(bucket, t.key(),
                    Optional.ofNullable(t.versionId()), bypass));
        }
        return catalog.deleteObjects(requests).thenApply(outcomes -> {
            List<DeleteOutcome> out = new ArrayList<>(outcomes.size());
            List<FileRef> released = new ArrayList<>();
            for (int i = 0; i < outcomes.size(); i++) {
                ObjectIdentifier target = batch.get(i);
                io.shardvault.coordinator.catalog.DeleteOutcome o = outcomes.get(i);
                if (o.result().isPresent()) {
                    io.shardvault.coordinator.catalog.DeleteResult r = o.result().get();
                    released.addAll(r.releasedFiles());
                    out.add(DeleteOutcome.deleted(target, new DeleteResult(target.key(),
                            r.versionId().map(CatalogObjectStore::versionOrNull).orElse(null), r.deleteMarker())));
                } else {
                    out.add(DeleteOutcome.failed(target, new ObjectStoreException(o.error().get(),
                            o.errorMessage())));
                }
            }
            wakeReaper(released);
            return out;
        });
    }

    @Override
    public CompletableFuture<CopyResult> copyObject(Caller caller, CopyObjectRequest request) {
        return map(owned(caller, request.bucket()).thenCompose(d -> version(caller, request.source().bucket(),
                request.source().key(), request.source().versionId())).thenCompose(source -> {
                    ObjectInfo info = objectInfo(source);
                    try {
                        request.source().check(info);
                    } catch (ObjectStoreException e) {
                        return CompletableFuture.failedFuture(e);
                    }
                    ObjectMetadata metadata = request.directive() == MetadataDirective.REPLACE ? request.metadata()
                            : info.metadata();
                    return copyBytes(source, 0, source.size(), null).thenCompose(copied -> {
                        PutObjectVersion put = new PutObjectVersion(request.bucket(), request.key(),
                                copied.file().size(), copied.md5(),
                                toCatalog(metadata, info.checksum()).withCannedAcl(request.acl().headerValue()),
                                List.of(new FilePart(0, copied.md5(), StoredFiles.toRef(copied.file()))),
                                condition(request.condition()), retention(request.lock()), request.lock().legalHold());
                        return commitOrDelete(copied.file(), catalog.putObjectVersion(put)).thenApply(r -> {
                            wakeReaper(r.releasedFiles());
                            return new CopyResult(new WriteResult(r.etag(), versionOrNull(r.versionId()),
                                    r.lastModified(), info.checksum(), copied.file().size()),
                                    versionOrNull(source.versionId()));
                        });
                    });
                }));
    }

    @Override
    public CompletableFuture<ListObjectsPage> listObjects(Caller caller, ListObjectsRequest request) {
        ListObjectsQuery query = new ListObjectsQuery(request.bucket(), request.prefix(),
                request.delimiter() == null ? "" : request.delimiter(), request.after() == null ? "" : request.after(),
                Optional.empty(), request.maxKeys());
        return map(permitted(caller, request.bucket(), CannedAcl::grantsRead)
                .thenCompose(b -> catalog.listObjects(query).thenApply(listing ->
                new ListObjectsPage(listing.objects().stream().map(v -> new ObjectSummary(v.key(), v.size(),
                        v.etag(), v.lastModified(), b.ownerAccessKeyId(), checksum(v.metadata())
                        .map(Checksum::algorithm).orElse(null), checksum(v.metadata()).map(Checksum::type)
                        .orElse(null))).toList(), listing.commonPrefixes(),
                        listing.truncated() && request.maxKeys() > 0,
                        listing.nextMarker().orElse(null)))));
    }

    @Override
    public CompletableFuture<VersionsPage> listObjectVersions(Caller caller, ListVersionsRequest request) {
        String keyMarker = request.keyMarker() == null ? "" : request.keyMarker();
        ListVersionsQuery query = new ListVersionsQuery(request.bucket(), request.prefix(),
                request.delimiter() == null ? "" : request.delimiter(), keyMarker,
                keyMarker.isEmpty() || request.versionIdMarker() == null ? "" : request.versionIdMarker(),
                request.maxKeys());
        return map(permitted(caller, request.bucket(), CannedAcl::grantsRead)
                .thenCompose(b -> catalog.listObjectVersions(query).thenApply(
                listing -> new VersionsPage(listing.versions().stream().map(v -> new VersionSummary(v.key(),
                        v.versionId(), v.latest(), v.deleteMarker(), v.size(), v.etag(), v.lastModified(),
                        b.ownerAccessKeyId())).toList(), listing.commonPrefixes(), listing.truncated(),
                        listing.truncated() ? listing.nextKeyMarker() : null,
                        listing.truncated() ? emptyToNull(listing.nextVersionIdMarker()) : null))));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    // ---- multipart

    @Override
    public CompletableFuture<UploadInfo> createMultipartUpload(Caller caller, CreateMultipartUploadRequest request) {
        Map<String, String> extra = new HashMap<>();
        if (request.checksumAlgorithm() != null) {
            extra.put(UPLOAD_ALGORITHM, request.checksumAlgorithm().name());
        }
        if (request.checksumType() != null) {
            extra.put(UPLOAD_CHECKSUM_TYPE, request.checksumType().name());
        }
        io.shardvault.coordinator.catalog.ObjectMetadata metadata = toCatalog(request.metadata(), null);
        Map<String, String> system = new HashMap<>(metadata.system());
        system.putAll(extra);
        io.shardvault.coordinator.catalog.ObjectMetadata withExtra = new io.shardvault.coordinator.catalog.ObjectMetadata(
                metadata.contentType(), system, metadata.user(), metadata.checksums(), metadata.checksumType())
                .withCannedAcl(request.acl().headerValue());
        return map(owned(caller, request.bucket()).thenCompose(b -> catalog.createMultipartUpload(request.bucket(),
                request.key(), withExtra, retention(request.lock()), request.lock().legalHold()))
                .thenApply(u -> uploadInfo(u, caller.owner())));
    }

    private static final String UPLOAD_ALGORITHM = "x-shardvault-upload-checksum-algorithm";
    private static final String UPLOAD_CHECKSUM_TYPE = "x-shardvault-upload-checksum-type";

    /**
     * Stores a part. The upload is looked up first (a gone upload fails before the body is read); when it
     * was created with a checksum algorithm every part must carry that checksum, which the catalog keeps
     * with the part so that completion can combine the parts' checksums without reading their bytes.
     */
    @Override
    public CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request) {
        BodySource body = request.body();
        CompletableFuture<UploadInfo> upload = owned(caller, request.bucket())
                .thenCompose(b -> upload(caller, request.bucket(), request.key(), request.uploadId()));
        return map(upload
                .thenCompose(u -> data.write(new BodyByteSource(body)).thenApply(file -> Map.entry(u, file)))
                .whenComplete((f, failure) -> {
                    if (failure != null) {
                        body.discard();
                    }
                })
                .thenCompose(uploaded -> {
                    StoredFile file = uploaded.getValue();
                    ChecksumAlgorithm required = uploaded.getKey().checksumAlgorithm();
                    Checksum checksum = body.digests().checksum();
                    if (required != null && (checksum == null || checksum.algorithm() != required)) {
                        data.delete(file);
                        return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.INVALID_ARGUMENT,
                                "this upload needs a " + required + " checksum on every part"));
                    }
                    Checksum kept = required == null ? null : checksum;
                    String etag = body.digests().md5Hex();
                    return commitOrDelete(file, catalog.putPart(request.bucket(), request.key(), request.uploadId(),
                            request.partNumber(), etag, StoredFiles.toRef(file), checksumMap(kept)))
                            .thenApply(released -> {
                                wakeReaper(released);
                                // The verified checksum is echoed even when the upload does not keep it, as S3 does.
                                return new PartInfo(request.partNumber(), etag, file.size(), java.time.Instant.now(),
                                        checksum);
                            });
                }));
    }

    /** The upload as the catalog has it ({@code NO_SUCH_UPLOAD}): an empty page of its parts carries it. */
    private CompletableFuture<UploadInfo> upload(Caller caller, String bucket, String key, String uploadId) {
        return catalog.listParts(bucket, key, uploadId, 0, 0).thenApply(l -> uploadInfo(l.upload(), caller.owner()));
    }

    private static Map<String, String> checksumMap(Checksum checksum) {
        return checksum == null ? Map.of() : Map.of(checksum.algorithm().name(), checksum.value());
    }

    /**
     * UploadPartCopy: streams the source range into a new file; when the upload was created with a checksum
     * algorithm, the part's checksum is computed on the way (as for an uploaded part, completion needs it).
     */
    @Override
    public CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request) {
        return map(owned(caller, request.bucket())
                .thenCompose(d -> upload(caller, request.bucket(), request.key(), request.uploadId()))
                .thenCompose(upload -> version(caller, request.source().bucket(), request.source().key(),
                        request.source().versionId()).thenCompose(source -> {
                            try {
                                request.source().check(objectInfo(source));
                            } catch (ObjectStoreException e) {
                                return CompletableFuture.failedFuture(e);
                            }
                            long from = request.rangeStart() < 0 ? 0 : request.rangeStart();
                            long to = request.rangeEnd() < 0 ? source.size() - 1 : request.rangeEnd();
                            if (from > to + 1 || to >= source.size() && source.size() > 0) {
                                return CompletableFuture.failedFuture(new ObjectStoreException(
                                        ErrorCode.INVALID_ARGUMENT, "range " + from + "-" + to
                                        + " is outside the source's " + source.size() + " bytes"));
                            }
                            ChecksumCalculator calculator = upload.checksumAlgorithm() == null ? null
                                    : ChecksumCalculator.of(upload.checksumAlgorithm());
                            return copyBytes(source, from, to - from + 1, calculator).thenCompose(copied -> {
                                Checksum checksum = calculator == null ? null : calculator.finish();
                                return commitOrDelete(copied.file(), catalog.putPart(request.bucket(), request.key(),
                                        request.uploadId(), request.partNumber(), copied.md5(),
                                        StoredFiles.toRef(copied.file()), checksumMap(checksum)))
                                        .thenApply(released -> {
                                            wakeReaper(released);
                                            return new PartInfo(request.partNumber(), copied.md5(),
                                                    copied.file().size(), java.time.Instant.now(), checksum);
                                        });
                            });
                        })));
    }

    /**
     * Completes an upload. When it was created with a checksum algorithm, the object's checksum (composite
     * or full-object, {@link MultipartChecksums}) is combined here from the checksums the catalog kept with
     * the parts, checked against the checksums the client listed per part ({@code INVALID_PART}) and against
     * a full-object checksum sent with the request ({@code CHECKSUM_MISMATCH}), then committed with the
     * version. A part replaced between the listing and the commit changes its ETag, which the catalog's
     * commit refuses, so the combined checksum always describes the committed parts.
     */
    @Override
    public CompletableFuture<WriteResult> completeMultipartUpload(Caller caller,
                                                                  CompleteMultipartUploadRequest request) {
        List<io.shardvault.coordinator.catalog.CompletedPart> parts = request.parts().stream()
                .map(p -> new io.shardvault.coordinator.catalog.CompletedPart(p.partNumber(),
                        io.shardvault.s3.Etags.unquote(p.etag()))).toList();
        return map(owned(caller, request.bucket())
                .thenCompose(b -> catalog.listParts(request.bucket(), request.key(), request.uploadId(), 0, 0))
                .thenCompose(l -> {
                    UploadInfo upload = uploadInfo(l.upload(), caller.owner());
                    if (upload.checksumAlgorithm() == null) {
                        return CompletableFuture.completedFuture((Checksum) null);
                    }
                    return allParts(request.bucket(), request.key(), request.uploadId(), 0, new HashMap<>())
                            .thenApply(uploaded -> objectChecksum(upload, request, uploaded));
                })
                .thenCompose(checksum -> catalog.completeMultipartUpload(request.bucket(), request.key(),
                        request.uploadId(), parts, minPartBytes, condition(request.condition()),
                        checksumMap(checksum), checksum == null ? "" : checksum.type().name())
                        .thenCompose(r -> {
                            wakeReaper(r.releasedFiles());
                            return catalog.getObjectVersion(request.bucket(), request.key(),
                                    Optional.of(r.versionId())).thenApply(v -> new WriteResult(r.etag(),
                                    versionOrNull(r.versionId()), r.lastModified(), checksum, v.size()));
                        })));
    }

    /** Every part of an upload by number, a catalog page (1,000) at a time. */
    private CompletableFuture<Map<Integer, UploadedPart>> allParts(String bucket, String key, String uploadId,
                                                                   int marker, Map<Integer, UploadedPart> into) {
        return catalog.listParts(bucket, key, uploadId, marker, 1000).thenCompose(page -> {
            for (UploadedPart p : page.parts()) {
                into.put(p.partNumber(), p);
            }
            return page.truncated() ? allParts(bucket, key, uploadId, page.nextPartNumberMarker(), into)
                    : CompletableFuture.completedFuture(into);
        });
    }

    /** The completed object's checksum from its listed parts' checksums (see {@link #completeMultipartUpload}). */
    private static Checksum objectChecksum(UploadInfo upload, CompleteMultipartUploadRequest request,
                                           Map<Integer, UploadedPart> uploaded) {
        ChecksumAlgorithm algorithm = upload.checksumAlgorithm();
        ChecksumType type = upload.checksumType() != null ? upload.checksumType()
                : algorithm == ChecksumAlgorithm.CRC64NVME ? ChecksumType.FULL_OBJECT : ChecksumType.COMPOSITE;
        List<Checksum> checksums = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        for (io.shardvault.s3.CompletedPart cp : request.parts()) {
            UploadedPart p = uploaded.get(cp.partNumber());
            if (p == null || !p.etag().equals(io.shardvault.s3.Etags.unquote(cp.etag()))) {
                throw new CompletionException(new ObjectStoreException(ErrorCode.INVALID_PART,
                        "part " + cp.partNumber() + " was not uploaded with that ETag"));
            }
            String value = p.checksums().get(algorithm.name());
            if (value == null) {
                // A part stored without the upload's checksum (copied, say): the object gets none.
                return null;
            }
            if (cp.checksum() != null && !cp.checksum().value().equals(value)) {
                throw new CompletionException(new ObjectStoreException(ErrorCode.INVALID_PART,
                        "part " + cp.partNumber() + " has another checksum"));
            }
            checksums.add(new Checksum(algorithm, value, ChecksumType.FULL_OBJECT));
            sizes.add(p.file().size());
        }
        Checksum combined = MultipartChecksums.combine(algorithm, type, checksums, sizes);
        if (request.fullObjectChecksum() != null && !request.fullObjectChecksum().value().equals(combined.value())) {
            throw new CompletionException(new ObjectStoreException(ErrorCode.CHECKSUM_MISMATCH,
                    "the full-object checksum does not match"));
        }
        return combined;
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(Caller caller, String bucket, String key, String uploadId) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.abortMultipartUpload(bucket, key, uploadId))
                .thenApply(released -> {
                    wakeReaper(released);
                    return null;
                }));
    }

    @Override
    public CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId,
                                                  int partNumberMarker, int maxParts) {
        return map(owned(caller, bucket).thenCompose(b -> catalog.listParts(bucket, key, uploadId, partNumberMarker,
                maxParts)).thenApply(listing -> new PartsPage(uploadInfo(listing.upload(), caller.owner()),
                listing.parts().stream().map(CatalogObjectStore::partInfo).toList(), listing.truncated(),
                listing.nextPartNumberMarker())));
    }

    /**
     * ListMultipartUploads. Without a delimiter it is one catalog page. With one, keys are rolled up into
     * common prefixes here, as in listings: the catalog's pages are read in order until the page is full, each
     * prefix counting once towards max-uploads and a page resumed after a prefix (key-marker) skipping it.
     */
    @Override
    public CompletableFuture<UploadsPage> listMultipartUploads(Caller caller, ListUploadsRequest request) {
        String keyMarker = request.keyMarker() == null ? "" : request.keyMarker();
        String uploadIdMarker = request.uploadIdMarker() == null ? "" : request.uploadIdMarker();
        if (request.delimiter() == null || request.delimiter().isEmpty()) {
            return map(owned(caller, request.bucket()).thenCompose(b -> catalog.listMultipartUploads(
                    request.bucket(), request.prefix(), keyMarker, uploadIdMarker, request.maxUploads()))
                    .thenApply(listing -> new UploadsPage(listing.uploads().stream()
                            .map(u -> uploadInfo(u, caller.owner())).toList(), List.of(), listing.truncated(),
                            listing.nextKeyMarker(), listing.nextUploadIdMarker())));
        }
        UploadRollup rollup = new UploadRollup(request, caller.owner());
        return map(owned(caller, request.bucket())
                .thenCompose(b -> rollUp(request, keyMarker, uploadIdMarker, rollup)));
    }

    private CompletableFuture<UploadsPage> rollUp(ListUploadsRequest request, String keyMarker, String uploadIdMarker,
                                                  UploadRollup rollup) {
        return catalog.listMultipartUploads(request.bucket(), request.prefix(), keyMarker, uploadIdMarker, 1000)
                .thenCompose(listing -> {
                    for (MultipartUpload u : listing.uploads()) {
                        if (!rollup.add(u)) {
                            return CompletableFuture.completedFuture(rollup.page(true));
                        }
                    }
                    return listing.truncated()
                            ? rollUp(request, listing.nextKeyMarker(), listing.nextUploadIdMarker(), rollup)
                            : CompletableFuture.completedFuture(rollup.page(false));
                });
    }

    /** One page of uploads and common prefixes being filled from the catalog's uploads, in key order. */
    private static final class UploadRollup {
        private final ListUploadsRequest request;
        private final String owner;
        private final List<UploadInfo> uploads = new ArrayList<>();
        private final List<String> prefixes = new ArrayList<>();
        private String lastKey;
        private String lastUploadId;

        UploadRollup(ListUploadsRequest request, String owner) {
            this.request = request;
            this.owner = owner;
        }

        /** Adds one upload (or its prefix); false when the page is full and {@code u} is left for the next. */
        boolean add(MultipartUpload u) {
            String delimiter = request.delimiter();
            int i = u.key().indexOf(delimiter, request.prefix().length());
            String prefix = i < 0 ? null : u.key().substring(0, i + delimiter.length());
            if (prefix != null && (prefix.equals(lastKey)
                    || request.keyMarker() != null && request.keyMarker().startsWith(prefix))) {
                return true;
            }
            if (uploads.size() + prefixes.size() >= request.maxUploads()) {
                return false;
            }
            if (prefix != null) {
                prefixes.add(prefix);
                lastKey = prefix;
                lastUploadId = null;
            } else {
                uploads.add(uploadInfo(u, owner));
                lastKey = u.key();
                lastUploadId = u.uploadId();
            }
            return true;
        }

        UploadsPage page(boolean truncated) {
            return new UploadsPage(uploads, prefixes, truncated, truncated ? lastKey : null,
                    truncated ? lastUploadId : null);
        }
    }

    // ---- helpers

    /** A copy's new file and its MD5. */
    private record Copied(StoredFile file, String md5) {
    }

    /**
     * Streams {@code [offset, offset+length)} of a version into a new file, computing its MD5 (and, when given,
     * another checksum) on the way.
     */
    private CompletableFuture<Copied> copyBytes(ObjectVersion source, long offset, long length,
                                                ChecksumCalculator checksum) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            return CompletableFuture.failedFuture(e);
        }
        PartsContent content = new PartsContent(data, source.parts(), offset, length);
        ByteSource from = new ByteSource() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                return content.read().thenApply(buf -> {
                    if (buf != null) {
                        md5.update(buf.nioBuffer());
                        if (checksum != null) {
                            checksum.update(buf.nioBuffer());
                        }
                    }
                    return buf;
                });
            }
        };
        return data.write(from).whenComplete((f, failure) -> content.close())
                .thenApply(file -> new Copied(file, HexFormat.of().formatHex(md5.digest())));
    }

    /**
     * Commits through {@code commit}; when the commit definitely failed the new file is unreferenced
     * and its shards go, otherwise (an unknown outcome) they stay: see {@link FailedCommits}.
     */
    private <T> CompletableFuture<T> commitOrDelete(StoredFile file, CompletableFuture<T> commit) {
        return commit.whenComplete((r, failure) -> {
            if (failure != null) {
                failedCommits.release(file, unwrap(failure));
            }
        });
    }

    private void wakeReaper(List<FileRef> released) {
        if (reaper != null && !released.isEmpty()) {
            reaper.wake();
        }
    }

    private BucketInfo bucketInfo(Bucket b) {
        return new BucketInfo(b.name(), b.ownerAccessKeyId(), b.createdAt(), region, b.objectLockEnabled());
    }

    private static String versionOrNull(String versionId) {
        return versionId == null || ObjectVersion.NULL_VERSION_ID.equals(versionId) ? null : versionId;
    }

    private static io.shardvault.coordinator.catalog.WriteCondition condition(WriteCondition c) {
        if (c.ifMatch() != null) {
            return io.shardvault.coordinator.catalog.WriteCondition.ifMatch(io.shardvault.s3.Etags.unquote(c.ifMatch()));
        }
        return c.ifNoneMatchAny() ? io.shardvault.coordinator.catalog.WriteCondition.IF_NONE_MATCH_ANY
                : io.shardvault.coordinator.catalog.WriteCondition.NONE;
    }

    private static Optional<Retention> retention(ObjectLock lock) {
        return lock.mode() == null ? Optional.empty() : Optional.of(new Retention(
                io.shardvault.coordinator.catalog.RetentionMode.valueOf(lock.mode().name()), lock.retainUntil()));
    }

    private static final String CACHE_CONTROL = "Cache-Control";
    private static final String CONTENT_DISPOSITION = "Content-Disposition";
    private static final String CONTENT_ENCODING = "Content-Encoding";
    private static final String CONTENT_LANGUAGE = "Content-Language";
    private static final String EXPIRES = "Expires";

    private static io.shardvault.coordinator.catalog.ObjectMetadata toCatalog(ObjectMetadata m, Checksum checksum) {
        Map<String, String> system = new HashMap<>();
        putIfSet(system, CACHE_CONTROL, m.cacheControl());
        putIfSet(system, CONTENT_DISPOSITION, m.contentDisposition());
        putIfSet(system, CONTENT_ENCODING, m.contentEncoding());
        putIfSet(system, CONTENT_LANGUAGE, m.contentLanguage());
        putIfSet(system, EXPIRES, m.expires());
        Map<String, String> checksums = checksum == null ? Map.of()
                : Map.of(checksum.algorithm().name(), checksum.value());
        return new io.shardvault.coordinator.catalog.ObjectMetadata(m.contentType() == null ? "" : m.contentType(),
                system, m.userMetadata(), checksums, checksum == null ? "" : checksum.type().name());
    }

    private static void putIfSet(Map<String, String> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    private static ObjectMetadata fromCatalog(io.shardvault.coordinator.catalog.ObjectMetadata m) {
        Function<String, String> sys = m.system()::get;
        return new ObjectMetadata(m.contentType().isEmpty() ? null : m.contentType(), sys.apply(CACHE_CONTROL),
                sys.apply(CONTENT_DISPOSITION), sys.apply(CONTENT_ENCODING), sys.apply(CONTENT_LANGUAGE),
                sys.apply(EXPIRES), m.user());
    }

    private static Optional<Checksum> checksum(io.shardvault.coordinator.catalog.ObjectMetadata m) {
        if (m.checksums().isEmpty() || m.checksumType().isEmpty()) {
            return Optional.empty();
        }
        Map.Entry<String, String> e = m.checksums().entrySet().iterator().next();
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.fromS3Name(e.getKey());
        return algorithm == null ? Optional.empty()
                : Optional.of(new Checksum(algorithm, e.getValue(), ChecksumType.valueOf(m.checksumType())));
    }

    private static ObjectInfo objectInfo(ObjectVersion v) {
        ObjectLock lock = new ObjectLock(v.retention().map(r -> RetentionMode.valueOf(r.mode().name())).orElse(null),
                v.retention().map(Retention::retainUntil).orElse(null), v.legalHold());
        int partsCount = v.parts().size() == 1 && v.parts().get(0).partNumber() == 0 ? 0 : v.parts().size();
        return new ObjectInfo(v.key(), versionOrNull(v.versionId()), v.size(), v.etag(), v.lastModified(),
                fromCatalog(v.metadata()), checksum(v.metadata()).orElse(null), partsCount, lock, v.deleteMarker());
    }

    private static UploadInfo uploadInfo(MultipartUpload u, String owner) {
        Map<String, String> system = u.metadata().system();
        String algorithm = system.get(UPLOAD_ALGORITHM);
        String type = system.get(UPLOAD_CHECKSUM_TYPE);
        return new UploadInfo(u.bucket(), u.key(), u.uploadId(), u.initiated(), owner,
                algorithm == null ? null : ChecksumAlgorithm.valueOf(algorithm),
                type == null ? null : ChecksumType.valueOf(type));
    }

    private static PartInfo partInfo(UploadedPart p) {
        Checksum checksum = p.checksums().entrySet().stream().findFirst()
                .map(e -> ChecksumAlgorithm.fromS3Name(e.getKey()) == null ? null
                        : new Checksum(ChecksumAlgorithm.fromS3Name(e.getKey()), e.getValue(),
                        ChecksumType.FULL_OBJECT)).orElse(null);
        return new PartInfo(p.partNumber(), p.etag(), p.file().size(), p.lastModified(), checksum);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static ObjectStoreException asStoreException(Throwable t) {
        if (t instanceof ObjectStoreException e) {
            return e;
        }
        if (t instanceof CatalogException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        if (t instanceof DataPathException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        if (t instanceof io.shardvault.common.rpc.RpcException e) {
            return new ObjectStoreException(e.code(), e.getMessage(), e);
        }
        return new ObjectStoreException(ErrorCode.INTERNAL, String.valueOf(t), t);
    }

    /** Every failure leaves as an {@link ObjectStoreException} with the code it had. */
    private static <T> CompletableFuture<T> map(CompletableFuture<T> future) {
        return future.handle((value, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(value);
            }
            return CompletableFuture.<T>failedFuture(asStoreException(unwrap(failure)));
        }).thenCompose(Function.identity());
    }
}
