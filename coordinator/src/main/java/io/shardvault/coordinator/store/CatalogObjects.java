package io.shardvault.coordinator.store;

import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopyResult;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.DeleteResult;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.MetadataDirective;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectRange;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.WriteResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Objects over the catalog and the data paths: put, get, head, delete, copy, their ACL, and the
 * listings of objects and versions. A new file is committed through {@link FileCommits}. Failures are
 * the catalog's and the data paths'; {@link CatalogObjectStore} translates them.
 *
 * <p>Thread-safe; never blocks the caller.
 */
record CatalogObjects(Catalog catalog, DataPath data, BucketAccess access, BucketQuotas quotas, FileCommits commits) {

    CompletableFuture<WriteResult> put(Caller caller, PutObjectRequest request) {
        BodySource body = request.body();
        // No byte is stored before the caller may write to the bucket (issue #21) and it fits its quota (issue
        // #24): the ownership read, which brings the bucket's usage along, comes first. Under the leader's lease it is a local read (docs/CATALOG.md), no longer the Raft round trip
        // that once made it run beside the write (issue #11). The commit re-reads the bucket inside the state
        // machine, so a bucket deleted while the bytes arrive still refuses the version.
        return access.permittedWithUsage(caller, request.bucket(), CannedAcl::grantsWrite)
                .thenCompose(read -> BucketQuotas.admit(read, body.contentLength()))
                .thenCompose(admitted -> data.write(new BodyByteSource(body)))
                .whenComplete((f, failure) -> {
                    if (failure != null) {
                        body.discard();
                    }
                })
                .thenCompose(file -> {
                    Checksum checksum = body.digests().checksum();
                    return commit(CatalogMapper.putVersion(request.bucket(), request.key(), file,
                            body.digests().md5Hex(), request.metadata(), checksum, request.acl(),
                            request.condition(), request.lock()), file, checksum);
                });
    }

    /** Commits a single-file version whose file is new. */
    private CompletableFuture<WriteResult> commit(PutObjectVersion put, StoredFile file, Checksum checksum) {
        return commits.commitOrDelete(file, catalog.putObjectVersion(put)).thenApply(r -> {
            commits.released(r.releasedFiles());
            return CatalogMapper.writeResult(r, checksum, file.size());
        });
    }

    CompletableFuture<StoredObject> get(Caller caller, String bucket, String key, String versionId) {
        return access.readableVersion(caller, bucket, key, versionId).thenApply(v -> new StoredObject() {
            @Override
            public ObjectInfo info() {
                return CatalogMapper.objectInfo(v);
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
        });
    }

    CompletableFuture<ObjectInfo> head(Caller caller, String bucket, String key, String versionId) {
        return access.readableVersion(caller, bucket, key, versionId).thenApply(CatalogMapper::objectInfo);
    }

    CompletableFuture<AccessControl> acl(Caller caller, String bucket, String key, String versionId) {
        // Only the bucket's owner gets the version, so the caller's owner is the bucket's.
        return access.ownedVersion(caller, bucket, key, versionId).thenApply(v -> new AccessControl(caller.owner(),
                CatalogMapper.cannedAcl(v.metadata().cannedAcl())));
    }

    CompletableFuture<Void> setAcl(Caller caller, String bucket, String key, String versionId, CannedAcl acl) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.setObjectAcl(bucket, key,
                Optional.ofNullable(versionId), acl.headerValue())).thenApply(v -> null);
    }

    CompletableFuture<DeleteResult> delete(Caller caller, String bucket, String key, String versionId,
                                           boolean bypassGovernance) {
        return access.permitted(caller, bucket, CannedAcl::grantsWrite)
                .thenCompose(b -> access.bypassAllowed(caller, bypassGovernance))
                .thenCompose(bypass -> catalog.deleteObject(CatalogMapper.deleteRequest(bucket, key, versionId,
                        bypass))).thenApply(r -> {
                            commits.released(r.releasedFiles());
                            return CatalogMapper.deleteResult(key, r);
                        });
    }

    /**
     * DeleteObjects as one catalog batch: up to {@link Catalog#MAX_BATCH} deletes in one Raft entry,
     * each checked against its version's lock atomically with its delete (a locked version is
     * refused on its own, the others still go). Larger lists are split into such batches, in order.
     */
    CompletableFuture<List<DeleteOutcome>> delete(Caller caller, String bucket, List<ObjectIdentifier> targets,
                                                  boolean bypassGovernance) {
        if (targets.isEmpty()) {
            return access.owned(caller, bucket).thenApply(b -> List.of());
        }
        return access.owned(caller, bucket).thenCompose(b -> access.bypassAllowed(caller, bypassGovernance))
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
                });
    }

    private CompletableFuture<List<DeleteOutcome>> deleteBatch(String bucket, List<ObjectIdentifier> batch,
                                                               boolean bypass) {
        List<DeleteObjectVersion> requests = new ArrayList<>();
        for (ObjectIdentifier t : batch) {
            requests.add(CatalogMapper.deleteRequest(bucket, t.key(), t.versionId(), bypass));
        }
        return catalog.deleteObjects(requests).thenApply(outcomes -> {
            List<DeleteOutcome> out = new ArrayList<>(outcomes.size());
            List<FileRef> released = new ArrayList<>();
            for (int i = 0; i < outcomes.size(); i++) {
                io.shardvault.coordinator.catalog.DeleteOutcome o = outcomes.get(i);
                o.result().ifPresent(r -> released.addAll(r.releasedFiles()));
                out.add(CatalogMapper.deleteOutcome(batch.get(i), o));
            }
            commits.released(released);
            return out;
        });
    }

    CompletableFuture<CopyResult> copy(Caller caller, CopyObjectRequest request) {
        return access.owned(caller, request.bucket()).thenCompose(d -> access.ownedVersion(caller,
                request.source().bucket(), request.source().key(), request.source().versionId()))
                .thenCompose(source -> {
                    ObjectInfo info = CatalogMapper.objectInfo(source);
                    try {
                        request.source().check(info);
                    } catch (ObjectStoreException e) {
                        return CompletableFuture.failedFuture(e);
                    }
                    ObjectMetadata metadata = request.directive() == MetadataDirective.REPLACE ? request.metadata()
                            : info.metadata();
                    return quotas.admit(request.bucket(), source.size()).thenCompose(admitted ->
                            CopiedFile.copy(data, source, 0, source.size(), null)).thenCompose(copied ->
                            commit(CatalogMapper.putVersion(request.bucket(), request.key(), copied.file(),
                                    copied.md5(), metadata, info.checksum(), request.acl(), request.condition(),
                                    request.lock()), copied.file(), info.checksum())
                                    .thenApply(written -> new CopyResult(written,
                                            CatalogMapper.versionOrNull(source.versionId()))));
                });
    }

    CompletableFuture<ListObjectsPage> list(Caller caller, ListObjectsRequest request) {
        return access.permitted(caller, request.bucket(), CannedAcl::grantsRead)
                .thenCompose(b -> catalog.listObjects(CatalogMapper.objectsQuery(request))
                        .thenApply(listing -> CatalogMapper.objectsPage(listing, request, b.ownerAccessKeyId())));
    }

    CompletableFuture<VersionsPage> listVersions(Caller caller, ListVersionsRequest request) {
        return access.permitted(caller, request.bucket(), CannedAcl::grantsRead)
                .thenCompose(b -> catalog.listObjectVersions(CatalogMapper.versionsQuery(request))
                        .thenApply(listing -> CatalogMapper.versionsPage(listing, b.ownerAccessKeyId())));
    }
}
