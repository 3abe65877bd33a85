package io.shardvault.coordinator.store;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumCalculator;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CompletedPart;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.Etags;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.MultipartChecksums;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.PartsPage;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.UploadsPage;
import io.shardvault.s3.WriteResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Multipart uploads over the catalog and the data paths: create, upload a part (or copy one),
 * complete, abort, and the listings of parts and uploads; the bucket's owner only. A part's new file
 * is committed through {@link FileCommits}. Failures are the catalog's and the data paths';
 * {@link CatalogObjectStore} translates them.
 *
 * <p>Thread-safe; never blocks the caller.
 *
 * @param minPartBytes the smallest part but the last
 */
record CatalogUploads(Catalog catalog, DataPath data, BucketAccess access, BucketQuotas quotas, FileCommits commits,
                      long minPartBytes) {
    /** The catalog's page of parts and of uploads read when this store walks them all. */
    private static final int PAGE = 1000;

    CompletableFuture<UploadInfo> create(Caller caller, CreateMultipartUploadRequest request) {
        io.shardvault.coordinator.catalog.ObjectMetadata metadata = CatalogMapper.uploadMetadata(request);
        return access.owned(caller, request.bucket()).thenCompose(b -> catalog.createMultipartUpload(request.bucket(),
                request.key(), metadata, CatalogMapper.retention(request.lock()), request.lock().legalHold()))
                .thenApply(u -> CatalogMapper.uploadInfo(u, caller.owner()));
    }

    /**
     * Stores a part. The upload is looked up first (a gone upload fails before the body is read); when it
     * was created with a checksum algorithm every part must carry that checksum, which the catalog keeps
     * with the part so that completion can combine the parts' checksums without reading their bytes.
     */
    CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request) {
        BodySource body = request.body();
        return access.ownedWithUsage(caller, request.bucket())
                .thenCompose(read -> BucketQuotas.admit(read, body.contentLength()))
                .thenCompose(admitted -> upload(caller, request.bucket(), request.key(), request.uploadId()))
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
                    // The verified checksum is echoed even when the upload does not keep it, as S3 does.
                    return commitPart(request.bucket(), request.key(), request.uploadId(), request.partNumber(),
                            file, body.digests().md5Hex(), required == null ? null : checksum, checksum);
                });
    }

    /**
     * UploadPartCopy: streams the source range into a new file; when the upload was created with a checksum
     * algorithm, the part's checksum is computed on the way (as for an uploaded part, completion needs it).
     */
    CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request) {
        return access.owned(caller, request.bucket())
                .thenCompose(d -> upload(caller, request.bucket(), request.key(), request.uploadId()))
                .thenCompose(upload -> access.ownedVersion(caller, request.source().bucket(), request.source().key(),
                        request.source().versionId()).thenCompose(source -> {
                            try {
                                request.source().check(CatalogMapper.objectInfo(source));
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
                            return quotas.admit(request.bucket(), to - from + 1).thenCompose(admitted ->
                                    CopiedFile.copy(data, source, from, to - from + 1, calculator)).thenCompose(copied -> {
                                Checksum checksum = calculator == null ? null : calculator.finish();
                                return commitPart(request.bucket(), request.key(), request.uploadId(),
                                        request.partNumber(), copied.file(), copied.md5(), checksum, checksum);
                            });
                        }));
    }

    /**
     * Commits a part whose file is new.
     *
     * @param kept   the checksum the catalog keeps with the part (the upload's algorithm), or null
     * @param echoed the checksum answered to the client, or null
     */
    private CompletableFuture<PartInfo> commitPart(String bucket, String key, String uploadId, int partNumber,
                                                   StoredFile file, String etag, Checksum kept, Checksum echoed) {
        return commits.commitOrDelete(file, catalog.putPart(bucket, key, uploadId, partNumber, etag,
                StoredFiles.toRef(file), CatalogMapper.checksumMap(kept))).thenApply(released -> {
                    commits.released(released);
                    return new PartInfo(partNumber, etag, file.size(), Instant.now(), echoed);
                });
    }

    /** The upload as the catalog has it ({@code NO_SUCH_UPLOAD}): an empty page of its parts carries it. */
    private CompletableFuture<UploadInfo> upload(Caller caller, String bucket, String key, String uploadId) {
        return catalog.listParts(bucket, key, uploadId, 0, 0)
                .thenApply(l -> CatalogMapper.uploadInfo(l.upload(), caller.owner()));
    }

    /**
     * Completes an upload. When it was created with a checksum algorithm, the object's checksum (composite
     * or full-object, {@link MultipartChecksums}) is combined here from the checksums the catalog kept with
     * the parts, checked against the checksums the client listed per part ({@code INVALID_PART}) and against
     * a full-object checksum sent with the request ({@code CHECKSUM_MISMATCH}), then committed with the
     * version. A part replaced between the listing and the commit changes its ETag, which the catalog's
     * commit refuses, so the combined checksum always describes the committed parts.
     *
     * <p>The parts are listed once, before the commit, for the quota, the checksum and the size answered. The
     * committed version is not read back: a write to the key may have replaced it already (an unversioned
     * bucket's null version), and issue #23's nemesis saw Complete answer NoSuchVersion for an upload it had
     * completed.
     */
    CompletableFuture<WriteResult> complete(Caller caller, CompleteMultipartUploadRequest request) {
        return access.ownedWithUsage(caller, request.bucket())
                .thenCompose(read -> allParts(request.bucket(), request.key(), request.uploadId(), 0, new HashMap<>())
                        // Completing stores no new byte, but the version's size joins the bucket's usage.
                        .thenCompose(parts -> BucketQuotas.admit(read, listedBytes(request, parts))
                                .thenCompose(admitted -> upload(caller, request.bucket(), request.key(),
                                        request.uploadId()))
                                .thenCompose(upload -> commit(request, upload, parts))));
    }

    private CompletableFuture<WriteResult> commit(CompleteMultipartUploadRequest request, UploadInfo upload,
                                                  Map<Integer, UploadedPart> parts) {
        Checksum checksum = upload.checksumAlgorithm() == null ? null : objectChecksum(upload, request, parts);
        return catalog.completeMultipartUpload(request.bucket(), request.key(), request.uploadId(),
                        CatalogMapper.completedParts(request.parts()), minPartBytes,
                        CatalogMapper.condition(request.condition()), CatalogMapper.checksumMap(checksum),
                        checksum == null ? "" : checksum.type().name())
                .thenApply(r -> {
                    commits.released(r.releasedFiles());
                    return CatalogMapper.writeResult(r, checksum, listedBytes(request, parts));
                });
    }

    /** Every part of an upload by number, a catalog page at a time. */
    private CompletableFuture<Map<Integer, UploadedPart>> allParts(String bucket, String key, String uploadId,
                                                                   int marker, Map<Integer, UploadedPart> into) {
        return catalog.listParts(bucket, key, uploadId, marker, PAGE).thenCompose(page -> {
            for (UploadedPart p : page.parts()) {
                into.put(p.partNumber(), p);
            }
            return page.truncated() ? allParts(bucket, key, uploadId, page.nextPartNumberMarker(), into)
                    : CompletableFuture.completedFuture(into);
        });
    }

    /** The bytes of the listed parts that were uploaded (a missing one the commit refuses anyway). */
    private static long listedBytes(CompleteMultipartUploadRequest request, Map<Integer, UploadedPart> uploaded) {
        long bytes = 0;
        for (CompletedPart cp : request.parts()) {
            UploadedPart p = uploaded.get(cp.partNumber());
            bytes += p == null ? 0 : p.file().size();
        }
        return bytes;
    }

    /** The completed object's checksum from its listed parts' checksums (see {@link #complete}). */
    private static Checksum objectChecksum(UploadInfo upload, CompleteMultipartUploadRequest request,
                                           Map<Integer, UploadedPart> uploaded) {
        ChecksumAlgorithm algorithm = upload.checksumAlgorithm();
        ChecksumType type = upload.checksumType() != null ? upload.checksumType()
                : algorithm == ChecksumAlgorithm.CRC64NVME ? ChecksumType.FULL_OBJECT : ChecksumType.COMPOSITE;
        List<Checksum> checksums = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        for (CompletedPart cp : request.parts()) {
            UploadedPart p = uploaded.get(cp.partNumber());
            if (p == null || !p.etag().equals(Etags.unquote(cp.etag()))) {
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

    CompletableFuture<Void> abort(Caller caller, String bucket, String key, String uploadId) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.abortMultipartUpload(bucket, key, uploadId))
                .thenApply(released -> {
                    commits.released(released);
                    return null;
                });
    }

    CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId,
                                           int partNumberMarker, int maxParts) {
        return access.owned(caller, bucket).thenCompose(b -> catalog.listParts(bucket, key, uploadId,
                partNumberMarker, maxParts)).thenApply(listing -> CatalogMapper.partsPage(listing, caller.owner()));
    }

    /**
     * ListMultipartUploads. Without a delimiter it is one catalog page. With one, keys are rolled up into
     * common prefixes here ({@link UploadRollup}): the catalog's pages are read in order until the page is full.
     */
    CompletableFuture<UploadsPage> list(Caller caller, ListUploadsRequest request) {
        String keyMarker = CatalogMapper.emptyIfNull(request.keyMarker());
        String uploadIdMarker = CatalogMapper.emptyIfNull(request.uploadIdMarker());
        if (request.delimiter() == null || request.delimiter().isEmpty()) {
            return access.owned(caller, request.bucket()).thenCompose(b -> catalog.listMultipartUploads(
                    request.bucket(), request.prefix(), keyMarker, uploadIdMarker, request.maxUploads()))
                    .thenApply(listing -> CatalogMapper.uploadsPage(listing, caller.owner()));
        }
        UploadRollup rollup = new UploadRollup(request, caller.owner());
        return access.owned(caller, request.bucket())
                .thenCompose(b -> rollUp(request, keyMarker, uploadIdMarker, rollup));
    }

    private CompletableFuture<UploadsPage> rollUp(ListUploadsRequest request, String keyMarker, String uploadIdMarker,
                                                  UploadRollup rollup) {
        return catalog.listMultipartUploads(request.bucket(), request.prefix(), keyMarker, uploadIdMarker, PAGE)
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
}
