package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PartListing;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.rocksdb.RocksIterator;

/**
 * Multipart uploads in {@link Table#UPLOADS} and their parts in {@link Table#PARTS}: create, put a part
 * (replacing a same-numbered part releases its file), complete (written as a version by
 * {@link ObjectVersions}), abort, and the listings.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class Uploads {
    private Uploads() {
    }

    private static MultipartUpload upload(RocksCatalogStore.Reads r, Bucket b, byte[] k, String uploadId)
            throws CatalogException {
        long seq = Keys.uploadSeqOf(uploadId);
        byte[] v = seq < 0 ? null : r.get(Table.UPLOADS, Keys.uploadKey(b.id(), k, seq));
        if (v == null) {
            throw new CatalogException(ErrorCode.NO_SUCH_UPLOAD, "no upload " + uploadId + " in " + b.name());
        }
        return upload(new Wire.Reader(v));
    }

    static MultipartUpload createUpload(Entry e, String bucketName, String key, ObjectMetadata metadata,
                                        Optional<Retention> retention, boolean legalHold) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = ObjectVersions.keyBytes(key);
        if ((retention.isPresent() || legalHold) && !b.objectLockEnabled()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bucket " + bucketName + " has no Object Lock");
        }
        MultipartUpload u = new MultipartUpload(bucketName, key, Keys.uploadId(e.index()), e.time(), metadata,
                retention, legalHold);
        Wire.Writer w = new Wire.Writer();
        upload(w, u);
        e.txn().put(Table.UPLOADS, Keys.uploadKey(b.id(), k, e.index()), w.toByteArray());
        return u;
    }

    private static List<UploadedPart> parts(RocksCatalogStore.Reads r, long uploadSeq, int after, int limit) {
        List<UploadedPart> out = new ArrayList<>();
        byte[] prefix = Wire.u64(uploadSeq);
        try (RocksIterator it = r.iterator(Table.PARTS)) {
            for (it.seek(Keys.partKey(uploadSeq, after + 1)); it.isValid() && Keys.startsWith(it.key(), prefix)
                    && out.size() < limit; it.next()) {
                out.add(part(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static List<FileRef> putPart(Entry e, String bucketName, String key, String uploadId, int partNumber, String etag,
                                 FileRef file, Map<String, String> checksums) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = ObjectVersions.keyBytes(key);
        MultipartUpload u = upload(e.txn(), b, k, uploadId);
        if (partNumber < 1 || partNumber > 10_000) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "part number must be in [1, 10000]: " + partNumber);
        }
        long seq = Keys.uploadSeqOf(u.uploadId());
        byte[] pk = Keys.partKey(seq, partNumber);
        List<FileRef> released = new ArrayList<>();
        FileLifetimes.addReference(e, file);
        byte[] old = e.txn().get(Table.PARTS, pk);
        if (old != null) {
            FileLifetimes.release(e, part(new Wire.Reader(old)).file(), released);
        }
        Wire.Writer w = new Wire.Writer();
        part(w, new UploadedPart(partNumber, ObjectVersions.stripQuotes(etag), file, e.time(), checksums));
        e.txn().put(Table.PARTS, pk, w.toByteArray());
        return released;
    }

    static PartListing listParts(RocksCatalogStore.Reads r, String bucketName, String key, String uploadId,
                                 int marker, int maxParts) throws CatalogException {
        Bucket b = Buckets.bucket(r, bucketName);
        MultipartUpload u = upload(r, b, ObjectVersions.keyBytes(key), uploadId);
        if (maxParts < 0 || marker < 0) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad part marker or max-parts");
        }
        List<UploadedPart> page = parts(r, Keys.uploadSeqOf(uploadId), marker, maxParts + 1);
        boolean truncated = page.size() > maxParts;
        if (truncated) {
            page = page.subList(0, maxParts);
        }
        return new PartListing(u, page, truncated, truncated && !page.isEmpty()
                ? page.get(page.size() - 1).partNumber() : 0);
    }

    static PutResult completeUpload(Entry e, String bucketName, String key, String uploadId,
                                    List<CompletedPart> completed, long minPartBytes, WriteCondition condition,
                                    Map<String, String> checksums, String checksumType) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = ObjectVersions.keyBytes(key);
        MultipartUpload u = upload(e.txn(), b, k, uploadId);
        long seq = Keys.uploadSeqOf(uploadId);
        if (completed.isEmpty()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a multipart upload needs at least one part");
        }
        List<UploadedPart> uploaded = parts(e.txn(), seq, 0, Integer.MAX_VALUE);
        Map<Integer, UploadedPart> byNumber = new TreeMap<>();
        for (UploadedPart p : uploaded) {
            byNumber.put(p.partNumber(), p);
        }
        List<FilePart> fileParts = new ArrayList<>();
        MessageDigest md5 = md5();
        long size = 0;
        int previous = 0;
        for (int i = 0; i < completed.size(); i++) {
            CompletedPart c = completed.get(i);
            if (c.partNumber() <= previous) {
                throw new CatalogException(ErrorCode.INVALID_PART_ORDER, "parts must be listed in ascending order");
            }
            previous = c.partNumber();
            UploadedPart p = byNumber.get(c.partNumber());
            if (p == null || !p.etag().equals(ObjectVersions.stripQuotes(c.etag()))) {
                throw new CatalogException(ErrorCode.INVALID_PART, "part " + c.partNumber() + " was not uploaded with ETag " + c.etag());
            }
            if (i < completed.size() - 1 && p.file().size() < minPartBytes) {
                throw new CatalogException(ErrorCode.ENTITY_TOO_SMALL, "part " + c.partNumber() + " is " + p.file().size()
                        + " bytes, under the minimum " + minPartBytes);
            }
            fileParts.add(new FilePart(p.partNumber(), p.etag(), p.file()));
            size += p.file().size();
            md5.update(etagBytes(p.etag()));
        }
        String etag = HexFormat.of().formatHex(md5.digest()) + "-" + completed.size();
        List<FileRef> released = new ArrayList<>();
        ObjectMetadata m = u.metadata();
        ObjectMetadata metadata = checksums.isEmpty() ? m
                : new ObjectMetadata(m.contentType(), m.system(), m.user(), checksums, checksumType);
        PutResult result = ObjectVersions.writeVersion(e, b, key, k, size, etag, metadata, fileParts, condition, u.retention(),
                u.legalHold(), released);
        for (UploadedPart p : uploaded) {
            FileLifetimes.release(e, p.file(), released);
            e.txn().delete(Table.PARTS, Keys.partKey(seq, p.partNumber()));
        }
        e.txn().delete(Table.UPLOADS, Keys.uploadKey(b.id(), k, seq));
        return new PutResult(result.versionId(), etag, result.lastModified(), released);
    }

    private static byte[] etagBytes(String etag) {
        try {
            return HexFormat.of().parseHex(etag);
        } catch (IllegalArgumentException e) {
            return Keys.utf8(etag);
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has MD5", e);
        }
    }

    static List<FileRef> abortUpload(Entry e, String bucketName, String key, String uploadId) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = ObjectVersions.keyBytes(key);
        upload(e.txn(), b, k, uploadId);
        long seq = Keys.uploadSeqOf(uploadId);
        List<FileRef> released = new ArrayList<>();
        for (UploadedPart p : parts(e.txn(), seq, 0, Integer.MAX_VALUE)) {
            FileLifetimes.release(e, p.file(), released);
            e.txn().delete(Table.PARTS, Keys.partKey(seq, p.partNumber()));
        }
        e.txn().delete(Table.UPLOADS, Keys.uploadKey(b.id(), k, seq));
        return released;
    }

    static UploadListing listUploads(RocksCatalogStore.Reads r, String bucketName, String prefix, String keyMarker,
                                     String uploadIdMarker, int max) throws CatalogException {
        Bucket b = Buckets.bucket(r, bucketName);
        if (max < 0) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad max-uploads " + max);
        }
        byte[] scope = Keys.keyPrefix(b.id(), Keys.utf8(prefix));
        byte[] start = scope;
        if (!keyMarker.isEmpty()) {
            byte[] mk = Keys.utf8(keyMarker);
            long useq = uploadIdMarker.isEmpty() ? -1 : Keys.uploadSeqOf(uploadIdMarker);
            byte[] after = useq < 0 ? Keys.afterKey(b.id(), mk) : Keys.uploadKey(b.id(), mk, useq + 1);
            if (Keys.compare(after, start) > 0) {
                start = after;
            }
        }
        List<MultipartUpload> out = new ArrayList<>();
        boolean truncated = false;
        try (RocksIterator it = r.iterator(Table.UPLOADS)) {
            for (it.seek(start); it.isValid() && Keys.startsWith(it.key(), scope); it.next()) {
                if (out.size() >= max) {
                    truncated = true;
                    break;
                }
                out.add(upload(new Wire.Reader(it.value())));
            }
        }
        MultipartUpload last = out.isEmpty() ? null : out.get(out.size() - 1);
        return new UploadListing(out, truncated, truncated && last != null ? last.key() : "",
                truncated && last != null ? last.uploadId() : "");
    }

    // ---- encodings: its records, as stored and as replied ----

    static void upload(Wire.Writer w, MultipartUpload u) {
        w.str(u.bucket()).str(u.key()).str(u.uploadId());
        Codec.instant(w, u.initiated());
        Codec.metadata(w, u.metadata());
        Codec.retention(w, u.retention());
        w.bool(u.legalHold());
    }

    static MultipartUpload upload(Wire.Reader r) {
        return new MultipartUpload(r.str(), r.str(), r.str(), Codec.instant(r), Codec.metadata(r), Codec.retention(r), r.bool());
    }

    /**
     * A part: {@code u16 partNumber | str etag | fileRef | i64 lastModified [| map checksums]}. Part numbers
     * stop at 10,000, so the top bit of the u16 says whether the checksums map follows; parts recorded before
     * it existed decode with none.
     */
    static void part(Wire.Writer w, UploadedPart p) {
        boolean checksums = !p.checksums().isEmpty();
        w.u16(p.partNumber() | (checksums ? PART_HAS_CHECKSUMS : 0)).str(p.etag());
        Codec.fileRef(w, p.file());
        Codec.instant(w, p.lastModified());
        if (checksums) {
            Codec.map(w, p.checksums());
        }
    }

    static UploadedPart part(Wire.Reader r) {
        int number = r.u16();
        String etag = r.str();
        FileRef file = Codec.fileRef(r);
        Instant lastModified = Codec.instant(r);
        Map<String, String> checksums = (number & PART_HAS_CHECKSUMS) != 0 ? Codec.map(r) : Map.of();
        return new UploadedPart(number & ~PART_HAS_CHECKSUMS, etag, file, lastModified, checksums);
    }

    private static final int PART_HAS_CHECKSUMS = 0x8000;

    static void completedPart(Wire.Writer w, CompletedPart p) {
        w.i32(p.partNumber()).str(p.etag());
    }

    static CompletedPart completedPart(Wire.Reader r) {
        return new CompletedPart(r.i32(), r.str());
    }

    static void partListing(Wire.Writer w, PartListing l) {
        upload(w, l.upload());
        Codec.list(w, l.parts(), Uploads::part);
        w.bool(l.truncated()).i32(l.nextPartNumberMarker());
    }

    static PartListing partListing(Wire.Reader r) {
        return new PartListing(upload(r), Codec.list(r, Uploads::part), r.bool(), r.i32());
    }

    static void uploadListing(Wire.Writer w, UploadListing l) {
        Codec.list(w, l.uploads(), Uploads::upload);
        w.bool(l.truncated()).str(l.nextKeyMarker()).str(l.nextUploadIdMarker());
    }

    static UploadListing uploadListing(Wire.Reader r) {
        return new UploadListing(Codec.list(r, Uploads::upload), r.bool(), r.str(), r.str());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** CREATE_UPLOAD: {@code str bucket | str key | metadata | retention | bool legalHold} → MultipartUpload. */
    static Call<MultipartUpload> createUpload(String bucket, String key, ObjectMetadata metadata,
                                              Optional<Retention> retention, boolean legalHold) {
        return new Call<>(Op.CREATE_UPLOAD, w -> {
            w.str(bucket).str(key);
            Codec.metadata(w, metadata);
            Codec.retention(w, retention);
            w.bool(legalHold);
        }, Uploads::upload);
    }

    static void applyCreateUpload(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        upload(out, createUpload(e, in.str(), in.str(), Codec.metadata(in), Codec.retention(in), in.bool()));
    }

    /**
     * PUT_PART: {@code str bucket | str key | str uploadId | i32 partNumber | str etag | fileRef [| map checksums]}
     * → list of released FileRef. Entries logged before part checksums end early and apply with none.
     */
    static Call<List<FileRef>> putPart(String bucket, String key, String uploadId, int partNumber, String etag,
                                       FileRef file, Map<String, String> checksums) {
        return new Call<>(Op.PUT_PART, w -> {
            w.str(bucket).str(key).str(uploadId).i32(partNumber).str(etag);
            Codec.fileRef(w, file);
            Codec.map(w, checksums);
        }, r -> Codec.list(r, Codec::fileRef));
    }

    static void applyPutPart(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        Codec.list(out, putPart(e, in.str(), in.str(), in.str(), in.i32(), in.str(), Codec.fileRef(in),
                in.atEnd() ? Map.of() : Codec.map(in)), Codec::fileRef);
    }

    /** LIST_PARTS: {@code str bucket | str key | str uploadId | i32 marker | i32 maxParts} → PartListing. */
    static Call<PartListing> listParts(String bucket, String key, String uploadId, int partNumberMarker, int maxParts) {
        return new Call<>(Op.LIST_PARTS, w -> w.str(bucket).str(key).str(uploadId).i32(partNumberMarker).i32(maxParts),
                Uploads::partListing);
    }

    static void answerListParts(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        partListing(out, listParts(r, in.str(), in.str(), in.str(), in.i32(), in.i32()));
    }

    /**
     * COMPLETE_UPLOAD: {@code str bucket | str key | str uploadId | list of CompletedPart | i64 minPartBytes |
     * condition [| map checksums | str checksumType]} → PutResult. Entries logged before checksums end early.
     */
    static Call<PutResult> completeUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                          long minPartBytes, WriteCondition condition, Map<String, String> checksums,
                                          String checksumType) {
        return new Call<>(Op.COMPLETE_UPLOAD, w -> {
            w.str(bucket).str(key).str(uploadId);
            Codec.list(w, parts, Uploads::completedPart);
            w.i64(minPartBytes);
            Codec.condition(w, condition);
            Codec.map(w, checksums);
            w.str(checksumType);
        }, ObjectVersions::putResult);
    }

    static void applyCompleteUpload(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String b = in.str();
        String k = in.str();
        String u = in.str();
        List<CompletedPart> parts = Codec.list(in, Uploads::completedPart);
        long minPartBytes = in.i64();
        WriteCondition condition = Codec.condition(in);
        Map<String, String> checksums = in.atEnd() ? Map.of() : Codec.map(in);
        String checksumType = in.atEnd() ? "" : in.str();
        ObjectVersions.putResult(out, completeUpload(e, b, k, u, parts, minPartBytes, condition, checksums,
                checksumType));
    }

    /** ABORT_UPLOAD: {@code str bucket | str key | str uploadId} → list of released FileRef. */
    static Call<List<FileRef>> abortUpload(String bucket, String key, String uploadId) {
        return new Call<>(Op.ABORT_UPLOAD, w -> w.str(bucket).str(key).str(uploadId), r -> Codec.list(r, Codec::fileRef));
    }

    static void applyAbortUpload(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        Codec.list(out, abortUpload(e, in.str(), in.str(), in.str()), Codec::fileRef);
    }

    /** LIST_UPLOADS: {@code str bucket | str prefix | str keyMarker | str uploadIdMarker | i32 max} → UploadListing. */
    static Call<UploadListing> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker,
                                           int maxUploads) {
        return new Call<>(Op.LIST_UPLOADS,
                w -> w.str(bucket).str(prefix).str(keyMarker).str(uploadIdMarker).i32(maxUploads), Uploads::uploadListing);
    }

    static void answerListUploads(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        uploadListing(out, listUploads(r, in.str(), in.str(), in.str(), in.str(), in.i32()));
    }
}
