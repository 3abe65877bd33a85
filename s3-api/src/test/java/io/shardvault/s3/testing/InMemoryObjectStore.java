package io.shardvault.s3.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.s3.BodyDigests;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Checksum;
import io.shardvault.s3.ChecksumAlgorithm;
import io.shardvault.s3.ChecksumType;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CompletedPart;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopyResult;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.DeleteOutcome;
import io.shardvault.s3.DeleteResult;
import io.shardvault.s3.Etags;
import io.shardvault.s3.ListObjectsPage;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.MetadataDirective;
import io.shardvault.s3.MultipartChecksums;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectRange;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.PartInfo;
import io.shardvault.s3.PartsPage;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.UploadsPage;
import io.shardvault.s3.WriteCondition;
import io.shardvault.s3.WriteResult;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test fixture: an unversioned {@link ObjectStore} in memory, bounded by a byte budget
 * ({@code NO_SPACE} beyond it). Simple rather than fast: one lock around everything, bodies read
 * whole into byte arrays (only here; the protocol layer never aggregates). Follows the contract's
 * rules a real store must follow: it reads a body to its verified end before committing, checks
 * write conditions atomically with the commit, and never blocks the caller's thread. Thread-safe.
 */
public final class InMemoryObjectStore implements ObjectStore {
    /** S3's minimum size of every part but the last. */
    public static final long MIN_PART_BYTES = 5L << 20;
    private static final int READ_CHUNK = 64 * 1024;

    private final long maxBytes;
    private final Clock clock;
    private final TreeMap<String, Bucket> buckets = new TreeMap<>();
    private long usedBytes;
    /** Number of open ObjectContents, for leak assertions. */
    private final AtomicInteger openContents = new AtomicInteger();

    public InMemoryObjectStore(long maxBytes, Clock clock) {
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    private static final class Bucket {
        final BucketInfo info;
        final TreeMap<String, Stored> objects = new TreeMap<>();
        final TreeMap<String, Upload> uploads = new TreeMap<>();
        CannedAcl acl;

        Bucket(BucketInfo info, CannedAcl acl) {
            this.info = info;
            this.acl = acl;
        }
    }

    /**
     * A version, its bytes and its ACL; {@code partSizes} are a multipart object's part sizes, in order (else
     * empty).
     */
    private record Stored(ObjectInfo info, byte[] data, List<Long> partSizes, CannedAcl acl) {
        Stored(ObjectInfo info, byte[] data, CannedAcl acl) {
            this(info, data, List.of(), acl);
        }
    }

    private static final class Upload {
        final UploadInfo info;
        final ObjectMetadata metadata;
        final CannedAcl acl;
        final TreeMap<Integer, Part> parts = new TreeMap<>();

        Upload(UploadInfo info, ObjectMetadata metadata, CannedAcl acl) {
            this.info = info;
            this.metadata = metadata;
            this.acl = acl;
        }
    }

    private record Part(PartInfo info, byte[] data) {
    }

    public int openContents() {
        return openContents.get();
    }

    private static <T> CompletableFuture<T> fail(ErrorCode code, String message) {
        return CompletableFuture.failedFuture(new ObjectStoreException(code, message));
    }

    private static ObjectStoreException error(ErrorCode code, String message) {
        return new ObjectStoreException(code, message);
    }

    /** The bucket, for its owner only. */
    private Bucket bucket(Caller caller, String name) throws ObjectStoreException {
        return bucket(caller, name, false);
    }

    /** The bucket, for its owner or, with {@code asAcl}, for a caller its ACL lets read. */
    private Bucket bucket(Caller caller, String name, boolean asAcl) throws ObjectStoreException {
        Bucket b = buckets.get(name);
        if (b == null) {
            throw error(ErrorCode.NO_SUCH_BUCKET, name);
        }
        if (!b.info.owner().equals(caller.owner()) && !(asAcl && b.acl.grantsRead(caller, b.info.owner()))) {
            throw error(ErrorCode.ACCESS_DENIED, "Access Denied");
        }
        return b;
    }

    /** The bucket, for a caller its ACL lets write objects. */
    private Bucket writableBucket(Caller caller, String name) throws ObjectStoreException {
        Bucket b = buckets.get(name);
        if (b == null) {
            throw error(ErrorCode.NO_SUCH_BUCKET, name);
        }
        if (!b.acl.grantsWrite(caller, b.info.owner())) {
            throw error(ErrorCode.ACCESS_DENIED, "Access Denied");
        }
        return b;
    }

    private <T> CompletableFuture<T> locked(Action<T> action) {
        try {
            synchronized (this) {
                return CompletableFuture.completedFuture(action.run());
            }
        } catch (ObjectStoreException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @FunctionalInterface
    private interface Action<T> {
        T run() throws ObjectStoreException;
    }

    @Override
    public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
        return locked(() -> buckets.values().stream().map(b -> b.info)
                .filter(i -> i.owner().equals(caller.owner())).toList());
    }

    @Override
    public CompletableFuture<BucketInfo> createBucket(Caller caller, String bucket, String region,
                                                      boolean objectLockEnabled, CannedAcl acl) {
        if (objectLockEnabled) {
            return fail(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented by the in-memory store");
        }
        return locked(() -> {
            Bucket existing = buckets.get(bucket);
            if (existing != null) {
                throw error(existing.info.owner().equals(caller.owner()) ? ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU
                        : ErrorCode.BUCKET_ALREADY_EXISTS, bucket);
            }
            BucketInfo info = new BucketInfo(bucket, caller.owner(), clock.instant(), region, false);
            buckets.put(bucket, new Bucket(info, acl));
            return info;
        });
    }

    @Override
    public CompletableFuture<Void> deleteBucket(Caller caller, String bucket) {
        return locked(() -> {
            Bucket b = bucket(caller, bucket);
            if (!b.objects.isEmpty() || !b.uploads.isEmpty()) {
                throw error(ErrorCode.BUCKET_NOT_EMPTY, bucket);
            }
            buckets.remove(bucket);
            return null;
        });
    }

    @Override
    public CompletableFuture<BucketInfo> headBucket(Caller caller, String bucket) {
        return locked(() -> bucket(caller, bucket, true).info);
    }

    @Override
    public CompletableFuture<AccessControl> getBucketAcl(Caller caller, String bucket) {
        return locked(() -> {
            Bucket b = bucket(caller, bucket);
            return new AccessControl(b.info.owner(), b.acl);
        });
    }

    @Override
    public CompletableFuture<Void> putBucketAcl(Caller caller, String bucket, CannedAcl acl) {
        return locked(() -> {
            bucket(caller, bucket).acl = acl;
            return null;
        });
    }

    @Override
    public CompletableFuture<AccessControl> getObjectAcl(Caller caller, String bucket, String key, String versionId) {
        return locked(() -> new AccessControl(bucket(caller, bucket).info.owner(),
                resolve(caller, bucket, key, versionId).acl));
    }

    @Override
    public CompletableFuture<Void> putObjectAcl(Caller caller, String bucket, String key, String versionId,
                                                CannedAcl acl) {
        return locked(() -> {
            Stored s = resolve(caller, bucket, key, versionId);
            bucket(caller, bucket).objects.put(key, new Stored(s.info, s.data, s.partSizes, acl));
            return null;
        });
    }

    /** Reads a body to its verified end. */
    private CompletableFuture<byte[]> readAll(BodySource body) {
        if (body.contentLength() > maxBytes) {
            body.discard();
            return fail(ErrorCode.NO_SPACE, "body larger than the store");
        }
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(0, Math.min(body.contentLength(), 1 << 20)));
        readLoop(body, out, result);
        return result;
    }

    private void readLoop(BodySource body, ByteArrayOutputStream out, CompletableFuture<byte[]> result) {
        body.read().whenComplete((buf, err) -> {
            if (err != null) {
                result.completeExceptionally(err);
                return;
            }
            if (buf == null) {
                result.complete(out.toByteArray());
                return;
            }
            try {
                if (out.size() + (long) buf.readableBytes() > maxBytes) {
                    body.discard();
                    result.completeExceptionally(error(ErrorCode.NO_SPACE, "body larger than the store"));
                    return;
                }
                byte[] chunk = new byte[buf.readableBytes()];
                buf.readBytes(chunk);
                out.write(chunk, 0, chunk.length);
            } finally {
                buf.release();
            }
            readLoop(body, out, result);
        });
    }

    private void checkCondition(Bucket b, String key, WriteCondition condition) throws ObjectStoreException {
        Stored current = b.objects.get(key);
        if (condition.ifNoneMatchAny() && current != null) {
            throw error(ErrorCode.PRECONDITION_FAILED, "the key exists");
        }
        if (condition.ifMatch() != null && (current == null || !Etags.matches(condition.ifMatch(), current.info.etag()))) {
            if (current == null) {
                throw error(ErrorCode.NO_SUCH_KEY, key);
            }
            throw error(ErrorCode.PRECONDITION_FAILED, "ETag mismatch");
        }
    }

    private void reserve(long bytes) throws ObjectStoreException {
        if (usedBytes + bytes > maxBytes) {
            throw error(ErrorCode.NO_SPACE, "the in-memory store is full");
        }
        usedBytes += bytes;
    }

    private void replace(Bucket b, String key, Stored stored) {
        Stored old = b.objects.put(key, stored);
        if (old != null) {
            usedBytes -= old.data.length;
        }
    }

    @Override
    public CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request) {
        if (!request.lock().isNone()) {
            request.body().discard();
            return fail(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented by the in-memory store");
        }
        CompletableFuture<Void> precheck = locked(() -> {
            writableBucket(caller, request.bucket());
            return null;
        });
        if (precheck.isCompletedExceptionally()) {
            request.body().discard();
            return precheck.thenApply(v -> null);
        }
        return readAll(request.body()).thenCompose(data -> locked(() -> {
            Bucket b = writableBucket(caller, request.bucket());
            checkCondition(b, request.key(), request.condition());
            BodyDigests d = request.body().digests();
            reserve(data.length);
            Instant now = clock.instant();
            ObjectInfo info = new ObjectInfo(request.key(), null, data.length, d.md5Hex(), now, request.metadata(),
                    d.checksum(), 0, ObjectLock.NONE, false);
            replace(b, request.key(), new Stored(info, data, request.acl()));
            return new WriteResult(info.etag(), null, now, info.checksum(), data.length);
        }));
    }

    private Stored resolve(Caller caller, String bucket, String key, String versionId) throws ObjectStoreException {
        return resolve(bucket(caller, bucket), key, versionId);
    }

    private static Stored resolve(Bucket b, String key, String versionId)
            throws ObjectStoreException {
        Stored s = b.objects.get(key);
        if (versionId != null && !versionId.equals("null")) {
            throw error(ErrorCode.NO_SUCH_VERSION, versionId);
        }
        if (s == null) {
            throw error(versionId != null ? ErrorCode.NO_SUCH_VERSION : ErrorCode.NO_SUCH_KEY, key);
        }
        return s;
    }

    /**
     * A version for GET or HEAD: the bucket's owner reads any; anyone else one whose ACL lets them, and learns
     * that a key is missing only when the bucket's ACL lets them list it (else {@code ACCESS_DENIED}, as S3).
     */
    private Stored readable(Caller caller, String bucket, String key, String versionId) throws ObjectStoreException {
        Bucket b = buckets.get(bucket);
        if (b == null) {
            throw error(ErrorCode.NO_SUCH_BUCKET, bucket);
        }
        String owner = b.info.owner();
        Stored s;
        try {
            s = resolve(b, key, versionId);
        } catch (ObjectStoreException e) {
            if (owner.equals(caller.owner()) || b.acl.grantsRead(caller, owner)) {
                throw e;
            }
            throw error(ErrorCode.ACCESS_DENIED, "Access Denied");
        }
        if (!s.acl.grantsRead(caller, owner)) {
            throw error(ErrorCode.ACCESS_DENIED, "Access Denied");
        }
        return s;
    }

    @Override
    public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId) {
        return locked(() -> {
            Stored s = readable(caller, bucket, key, versionId);
            return new StoredObject() {
                @Override
                public ObjectInfo info() {
                    return s.info;
                }

                @Override
                public ObjectContent open(long offset, long length) {
                    return new ArrayContent(s.data, (int) offset, (int) length);
                }

                @Override
                public Optional<ObjectRange> part(int partNumber) {
                    return StoredObject.partOf(s.partSizes.isEmpty() ? List.of((long) s.data.length) : s.partSizes,
                            partNumber);
                }
            };
        });
    }

    /** Serves a byte range in 64 KiB chunks, wrapped without copying. */
    private final class ArrayContent implements ObjectContent {
        private final byte[] data;
        private int position;
        private final int end;
        private boolean closed;

        ArrayContent(byte[] data, int offset, int length) {
            this.data = data;
            this.position = offset;
            this.end = offset + length;
            openContents.incrementAndGet();
        }

        @Override
        public CompletableFuture<ByteBuf> read() {
            if (position >= end) {
                return CompletableFuture.completedFuture(null);
            }
            int n = Math.min(READ_CHUNK, end - position);
            ByteBuf buf = Unpooled.wrappedBuffer(data, position, n);
            position += n;
            return CompletableFuture.completedFuture(buf);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                openContents.decrementAndGet();
            }
        }
    }

    @Override
    public CompletableFuture<ObjectInfo> headObject(Caller caller, String bucket, String key, String versionId) {
        return locked(() -> readable(caller, bucket, key, versionId).info);
    }

    @Override
    public CompletableFuture<DeleteResult> deleteObject(Caller caller, String bucket, String key, String versionId,
                                                        boolean bypassGovernance) {
        return locked(() -> deleteLocked(writableBucket(caller, bucket), key, versionId));
    }

    private DeleteResult deleteLocked(Bucket b, String key, String versionId) throws ObjectStoreException {
        if (versionId != null && !versionId.equals("null")) {
            throw error(ErrorCode.NO_SUCH_VERSION, versionId);
        }
        Stored old = b.objects.remove(key);
        if (old != null) {
            usedBytes -= old.data.length;
        }
        return new DeleteResult(key, null, false);
    }

    @Override
    public CompletableFuture<List<DeleteOutcome>> deleteObjects(Caller caller, String bucket,
                                                                List<ObjectIdentifier> targets, boolean bypassGovernance) {
        return locked(() -> {
            Bucket b = bucket(caller, bucket);
            List<DeleteOutcome> out = new ArrayList<>();
            for (ObjectIdentifier t : targets) {
                try {
                    out.add(DeleteOutcome.deleted(t, deleteLocked(b, t.key(), t.versionId())));
                } catch (ObjectStoreException e) {
                    out.add(DeleteOutcome.failed(t, e));
                }
            }
            return out;
        });
    }

    @Override
    public CompletableFuture<CopyResult> copyObject(Caller caller, CopyObjectRequest request) {
        if (!request.lock().isNone()) {
            return fail(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented by the in-memory store");
        }
        return locked(() -> {
            Stored src = resolve(caller, request.source().bucket(), request.source().key(),
                    request.source().versionId());
            request.source().check(src.info);
            Bucket dst = bucket(caller, request.bucket());
            checkCondition(dst, request.key(), request.condition());
            reserve(src.data.length);
            Instant now = clock.instant();
            ObjectMetadata metadata = request.directive() == MetadataDirective.REPLACE ? request.metadata()
                    : src.info.metadata();
            ObjectInfo info = new ObjectInfo(request.key(), null, src.data.length, src.info.etag(), now, metadata,
                    src.info.checksum(), src.info.partsCount(), ObjectLock.NONE, false);
            replace(dst, request.key(), new Stored(info, src.data, src.partSizes, request.acl()));
            return new CopyResult(new WriteResult(info.etag(), null, now, info.checksum(), info.size()), null);
        });
    }

    @Override
    public CompletableFuture<ListObjectsPage> listObjects(Caller caller, ListObjectsRequest request) {
        return locked(() -> {
            Bucket b = bucket(caller, request.bucket(), true);
            List<ObjectSummary> objects = new ArrayList<>();
            List<String> prefixes = new ArrayList<>();
            String after = request.after();
            String lastEntry = null;
            boolean truncated = false;
            String start = after != null && after.compareTo(request.prefix()) > 0 ? after : request.prefix();
            for (Map.Entry<String, Stored> e : b.objects.tailMap(start, true).entrySet()) {
                String key = e.getKey();
                if (!key.startsWith(request.prefix())) {
                    break;
                }
                if (after != null && key.compareTo(after) <= 0) {
                    continue;
                }
                String entry = key;
                boolean isPrefix = false;
                if (request.delimiter() != null) {
                    int i = key.indexOf(request.delimiter(), request.prefix().length());
                    if (i >= 0) {
                        entry = key.substring(0, i + request.delimiter().length());
                        isPrefix = true;
                    }
                }
                if (isPrefix && (entry.equals(lastEntry) || (after != null && after.startsWith(entry)))) {
                    continue;
                }
                if (objects.size() + prefixes.size() >= request.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (isPrefix) {
                    prefixes.add(entry);
                } else {
                    ObjectInfo i = e.getValue().info;
                    objects.add(new ObjectSummary(key, i.size(), i.etag(), i.lastModified(),
                            request.fetchOwner() ? b.info.owner() : null,
                            i.checksum() == null ? null : i.checksum().algorithm(),
                            i.checksum() == null ? null : i.checksum().type()));
                }
                lastEntry = entry;
            }
            return new ListObjectsPage(objects, prefixes, truncated, truncated ? lastEntry : null);
        });
    }

    @Override
    public CompletableFuture<UploadInfo> createMultipartUpload(Caller caller, CreateMultipartUploadRequest request) {
        if (!request.lock().isNone()) {
            return fail(ErrorCode.NOT_IMPLEMENTED, "Object Lock is not implemented by the in-memory store");
        }
        return locked(() -> {
            Bucket b = bucket(caller, request.bucket());
            String id = UUID.randomUUID().toString().replace("-", "");
            UploadInfo info = new UploadInfo(request.bucket(), request.key(), id, clock.instant(), caller.owner(),
                    request.checksumAlgorithm(), request.checksumType());
            b.uploads.put(id, new Upload(info, request.metadata(), request.acl()));
            return info;
        });
    }

    private Upload upload(Bucket b, String key, String uploadId) throws ObjectStoreException {
        Upload u = b.uploads.get(uploadId);
        if (u == null || !u.info.key().equals(key)) {
            throw error(ErrorCode.NO_SUCH_UPLOAD, uploadId);
        }
        return u;
    }

    @Override
    public CompletableFuture<PartInfo> uploadPart(Caller caller, UploadPartRequest request) {
        CompletableFuture<Upload> precheck = locked(() -> upload(bucket(caller, request.bucket()), request.key(),
                request.uploadId()));
        if (precheck.isCompletedExceptionally()) {
            request.body().discard();
            return precheck.thenApply(u -> null);
        }
        return readAll(request.body()).thenCompose(data -> locked(() -> {
            Upload u = upload(bucket(caller, request.bucket()), request.key(), request.uploadId());
            BodyDigests d = request.body().digests();
            Checksum checksum = d.checksum();
            ChecksumAlgorithm required = u.info.checksumAlgorithm();
            if (required != null && (checksum == null || checksum.algorithm() != required)) {
                throw error(ErrorCode.INVALID_ARGUMENT, "this upload needs a " + required + " checksum on every part");
            }
            PartInfo stored = putPart(u, request.partNumber(), data, d.md5Hex(), required == null ? null : checksum);
            // The verified checksum is echoed even when the upload does not keep it, as S3 does.
            return new PartInfo(stored.partNumber(), stored.etag(), stored.size(), stored.lastModified(), checksum);
        }));
    }

    private PartInfo putPart(Upload u, int number, byte[] data, String md5Hex, Checksum checksum)
            throws ObjectStoreException {
        reserve(data.length);
        PartInfo info = new PartInfo(number, md5Hex, data.length, clock.instant(), checksum);
        Part old = u.parts.put(number, new Part(info, data));
        if (old != null) {
            usedBytes -= old.data.length;
        }
        return info;
    }

    @Override
    public CompletableFuture<PartInfo> uploadPartCopy(Caller caller, UploadPartCopyRequest request) {
        return locked(() -> {
            Upload u = upload(bucket(caller, request.bucket()), request.key(), request.uploadId());
            Stored src = resolve(caller, request.source().bucket(), request.source().key(),
                    request.source().versionId());
            request.source().check(src.info);
            byte[] data = src.data;
            if (request.rangeStart() >= 0) {
                if (request.rangeEnd() >= data.length) {
                    throw error(ErrorCode.INVALID_ARGUMENT, "Range specified is not valid for source object of size: "
                            + data.length);
                }
                data = Arrays.copyOfRange(data, (int) request.rangeStart(), (int) request.rangeEnd() + 1);
            }
            Checksum checksum = null;
            if (u.info.checksumAlgorithm() != null) {
                var digest = io.shardvault.s3.internal.checksum.ChecksumFunctions.create(u.info.checksumAlgorithm());
                digest.update(data, 0, data.length);
                checksum = new Checksum(u.info.checksumAlgorithm(),
                        java.util.Base64.getEncoder().encodeToString(digest.finish()), ChecksumType.FULL_OBJECT);
            }
            return putPart(u, request.partNumber(), data, md5Hex(data), checksum);
        });
    }

    private static String md5Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public CompletableFuture<WriteResult> completeMultipartUpload(Caller caller, CompleteMultipartUploadRequest request) {
        return locked(() -> {
            Bucket b = bucket(caller, request.bucket());
            Upload u = upload(b, request.key(), request.uploadId());
            checkCondition(b, request.key(), request.condition());
            List<Part> parts = new ArrayList<>();
            for (int i = 0; i < request.parts().size(); i++) {
                CompletedPart cp = request.parts().get(i);
                Part p = u.parts.get(cp.partNumber());
                if (p == null || !p.info.etag().equals(cp.etag())) {
                    throw error(ErrorCode.INVALID_PART, "part " + cp.partNumber() + " was not uploaded with that ETag");
                }
                if (cp.checksum() != null && (p.info.checksum() == null
                        || !p.info.checksum().value().equals(cp.checksum().value()))) {
                    throw error(ErrorCode.INVALID_PART, "part " + cp.partNumber() + " has another checksum");
                }
                if (i < request.parts().size() - 1 && p.data.length < MIN_PART_BYTES) {
                    throw error(ErrorCode.ENTITY_TOO_SMALL, "part " + cp.partNumber() + " is too small");
                }
                parts.add(p);
            }
            Checksum checksum = null;
            if (u.info.checksumAlgorithm() != null) {
                checksum = MultipartChecksums.combine(u.info.checksumAlgorithm(), u.info.checksumType(),
                        parts.stream().map(p -> p.info.checksum()).toList(),
                        parts.stream().map(p -> (long) p.data.length).toList());
                if (request.fullObjectChecksum() != null
                        && !request.fullObjectChecksum().value().equals(checksum.value())) {
                    throw error(ErrorCode.CHECKSUM_MISMATCH, "the full-object checksum does not match");
                }
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (Part p : parts) {
                all.write(p.data, 0, p.data.length);
            }
            byte[] data = all.toByteArray();
            String etag = Etags.multipart(parts.stream().map(p -> p.info.etag()).toList());
            Instant now = clock.instant();
            ObjectInfo info = new ObjectInfo(request.key(), null, data.length, etag, now, u.metadata, checksum,
                    parts.size(), ObjectLock.NONE, false);
            for (Part p : u.parts.values()) {
                usedBytes -= p.data.length;
            }
            b.uploads.remove(request.uploadId());
            reserve(data.length);
            replace(b, request.key(), new Stored(info, data, parts.stream().map(p -> (long) p.data.length).toList(),
                    u.acl));
            return new WriteResult(etag, null, now, checksum, data.length);
        });
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(Caller caller, String bucket, String key, String uploadId) {
        return locked(() -> {
            Bucket b = bucket(caller, bucket);
            Upload u = upload(b, key, uploadId);
            for (Part p : u.parts.values()) {
                usedBytes -= p.data.length;
            }
            b.uploads.remove(uploadId);
            return null;
        });
    }

    @Override
    public CompletableFuture<PartsPage> listParts(Caller caller, String bucket, String key, String uploadId,
                                                  int partNumberMarker, int maxParts) {
        return locked(() -> {
            Upload u = upload(bucket(caller, bucket), key, uploadId);
            List<PartInfo> parts = new ArrayList<>();
            boolean truncated = false;
            for (Part p : u.parts.tailMap(partNumberMarker, false).values()) {
                if (parts.size() >= maxParts) {
                    truncated = true;
                    break;
                }
                parts.add(p.info);
            }
            int next = parts.isEmpty() ? 0 : parts.get(parts.size() - 1).partNumber();
            return new PartsPage(u.info, parts, truncated, next);
        });
    }

    @Override
    public CompletableFuture<UploadsPage> listMultipartUploads(Caller caller, ListUploadsRequest request) {
        return locked(() -> {
            Bucket b = bucket(caller, request.bucket());
            List<UploadInfo> all = new ArrayList<>();
            for (Upload u : b.uploads.values()) {
                all.add(u.info);
            }
            all.sort((x, y) -> x.key().equals(y.key()) ? x.initiated().compareTo(y.initiated())
                    : x.key().compareTo(y.key()));
            List<UploadInfo> out = new ArrayList<>();
            List<String> prefixes = new ArrayList<>();
            boolean truncated = false;
            for (UploadInfo u : all) {
                if (!u.key().startsWith(request.prefix())) {
                    continue;
                }
                if (request.keyMarker() != null && u.key().compareTo(request.keyMarker()) <= 0) {
                    continue;
                }
                if (request.delimiter() != null) {
                    int i = u.key().indexOf(request.delimiter(), request.prefix().length());
                    if (i >= 0) {
                        String p = u.key().substring(0, i + request.delimiter().length());
                        if (!prefixes.contains(p)) {
                            prefixes.add(p);
                        }
                        continue;
                    }
                }
                if (out.size() >= request.maxUploads()) {
                    truncated = true;
                    break;
                }
                out.add(u);
            }
            UploadInfo last = out.isEmpty() ? null : out.get(out.size() - 1);
            return new UploadsPage(out, prefixes, truncated, truncated && last != null ? last.key() : null,
                    truncated && last != null ? last.uploadId() : null);
        });
    }
}
