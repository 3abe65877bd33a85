package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.BucketVersion;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.DeleteIfLatest;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteOutcome;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.rocksdb.RocksIterator;

/**
 * Objects and their versions in {@link Table#VERSIONS}: put (with its condition and Object Lock), delete
 * (markers, the {@code null} version, batches), retention and legal hold, get, and the two listings.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class ObjectVersions {
    private static final int MAX_KEY_BYTES = 1024;

    private ObjectVersions() {
    }

    static byte[] keyBytes(String key) throws CatalogException {
        byte[] k = Keys.utf8(key);
        if (k.length == 0 || k.length > MAX_KEY_BYTES || key.indexOf('\0') >= 0) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "key must be 1.." + MAX_KEY_BYTES + " UTF-8 bytes without U+0000");
        }
        return k;
    }

    /** The key's newest version, or null. */
    static StoredVersion latest(RocksCatalogStore.Reads r, int bucketId, byte[] key) {
        byte[] prefix = Keys.itemPrefix(bucketId, key);
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            it.seek(prefix);
            return it.isValid() && Keys.startsWith(it.key(), prefix) ? StoredVersion.decode(it.value()) : null;
        }
    }

    /** The key's {@code null} version, or null. */
    private static StoredVersion nullVersion(RocksCatalogStore.Reads r, int bucketId, byte[] key) {
        byte[] prefix = Keys.itemPrefix(bucketId, key);
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            for (it.seek(prefix); it.isValid() && Keys.startsWith(it.key(), prefix); it.next()) {
                StoredVersion v = StoredVersion.decode(it.value());
                if (v.nullVersion()) {
                    return v;
                }
            }
        }
        return null;
    }

    /** The named version, or null when absent; a malformed id is INVALID_ARGUMENT. */
    static StoredVersion version(RocksCatalogStore.Reads r, int bucketId, byte[] key, String versionId)
            throws CatalogException {
        if (ObjectVersion.NULL_VERSION_ID.equals(versionId)) {
            return nullVersion(r, bucketId, key);
        }
        long seq = Keys.seqOf(versionId);
        if (seq < 0) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "invalid version id '" + versionId + "'");
        }
        byte[] v = r.get(Table.VERSIONS, Keys.versionKey(bucketId, key, seq));
        return v == null ? null : StoredVersion.decode(v);
    }

    static ObjectVersion getObject(RocksCatalogStore.Reads r, String bucketName, String key,
                                   Optional<String> versionId) throws CatalogException {
        return getObject(r, Buckets.bucket(r, bucketName), key, versionId);
    }

    private static ObjectVersion getObject(RocksCatalogStore.Reads r, Bucket b, String key,
                                           Optional<String> versionId) throws CatalogException {
        String bucketName = b.name();
        byte[] k = keyBytes(key);
        StoredVersion newest = latest(r, b.id(), k);
        if (versionId.isEmpty()) {
            if (newest == null || newest.deleteMarker()) {
                throw new CatalogException(ErrorCode.NO_SUCH_KEY, "no key " + key + " in " + bucketName
                        + (newest != null ? " (latest version is a delete marker)" : ""));
            }
            return newest.toPublic(bucketName, key, true);
        }
        StoredVersion v = version(r, b.id(), k, versionId.get());
        if (v == null) {
            throw new CatalogException(ErrorCode.NO_SUCH_VERSION, "no version " + versionId.get() + " of " + key + " in " + bucketName);
        }
        return v.toPublic(bucketName, key, newest != null && newest.seq() == v.seq());
    }

    private static void checkDeletable(StoredVersion v, Instant now, boolean bypassGovernance, String what)
            throws CatalogException {
        if (v.legalHold()) {
            throw new CatalogException(ErrorCode.ACCESS_DENIED, what + " is under a legal hold");
        }
        if (v.retention().isPresent() && v.retention().get().activeAt(now)) {
            Retention ret = v.retention().get();
            if (ret.mode() == RetentionMode.COMPLIANCE || !bypassGovernance) {
                throw new CatalogException(ErrorCode.ACCESS_DENIED, what + " is retained in " + ret.mode() + " mode until "
                        + ret.retainUntil() + governanceHint(ret.mode()));
            }
        }
    }

    /** What a GOVERNANCE refusal lacks (the permission and the header); COMPLIANCE yields to no one. */
    private static String governanceHint(RetentionMode mode) {
        return mode == RetentionMode.GOVERNANCE ? " (bypassing it needs s3:BypassGovernanceRetention and "
                + "x-amz-bypass-governance-retention: true)" : "";
    }

    /** Removes a version and releases its files. */
    private static void removeVersion(Entry e, int bucketId, byte[] key, StoredVersion v, List<FileRef> released) {
        e.txn().delete(Table.VERSIONS, Keys.versionKey(bucketId, key, v.seq()));
        if (!v.deleteMarker()) {
            Counters.addToCounter(e, Counters.bucketBytes(bucketId), -v.size());
            Counters.addToCounter(e, Counters.bucketVersions(bucketId), -1);
        }
        for (FilePart p : v.parts()) {
            FileLifetimes.release(e, p.file(), released);
        }
    }

    static void putVersion(Entry e, int bucketId, byte[] key, StoredVersion v) {
        e.txn().put(Table.VERSIONS, Keys.versionKey(bucketId, key, v.seq()), v.encode());
    }

    private static void checkCondition(StoredVersion current, WriteCondition c, String key) throws CatalogException {
        boolean exists = current != null && !current.deleteMarker();
        switch (c.kind()) {
            case NONE -> {
            }
            case IF_NONE_MATCH_ANY -> {
                if (exists) {
                    throw new CatalogException(ErrorCode.PRECONDITION_FAILED, "If-None-Match: * but " + key + " exists");
                }
            }
            case IF_MATCH -> {
                if (!exists) {
                    throw new CatalogException(ErrorCode.NO_SUCH_KEY, "If-Match on " + key + ", which does not exist");
                }
                if (!stripQuotes(c.etag()).equals(current.etag()) && !"*".equals(c.etag())) {
                    throw new CatalogException(ErrorCode.PRECONDITION_FAILED, "If-Match " + c.etag() + " but " + key + " has ETag "
                            + current.etag());
                }
            }
            default -> throw new IllegalStateException("condition " + c.kind());
        }
    }

    static String stripQuotes(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1) : etag;
    }

    private static Optional<Retention> effectiveRetention(Bucket b, Optional<Retention> asked, Instant now)
            throws CatalogException {
        if (asked.isPresent()) {
            if (!b.objectLockEnabled()) {
                throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
            }
            if (!asked.get().activeAt(now)) {
                throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "retain-until date must be in the future");
            }
            return asked;
        }
        if (b.defaultRetentionMode().isPresent()) {
            return Optional.of(new Retention(b.defaultRetentionMode().get(),
                    now.plus(Duration.ofDays(b.defaultRetentionDays()))));
        }
        return Optional.empty();
    }

    /** The common body of put and complete: condition, lock, the null version, references. */
    static PutResult writeVersion(Entry e, Bucket b, String key, byte[] k, long size, String etag,
                                          ObjectMetadata metadata, List<FilePart> parts, WriteCondition condition,
                                          Optional<Retention> retention, boolean legalHold,
                                          List<FileRef> released) throws CatalogException {
        StoredVersion current = latest(e.txn(), b.id(), k);
        checkCondition(current, condition, key);
        if (legalHold && !b.objectLockEnabled()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
        }
        Optional<Retention> ret = effectiveRetention(b, retention, e.time());
        boolean versioned = b.versioning() == VersioningState.ENABLED;
        if (!versioned) {
            StoredVersion old = nullVersion(e.txn(), b.id(), k);
            if (old != null) {
                checkDeletable(old, e.time(), false, "the null version of " + key);
                removeVersion(e, b.id(), k, old, released);
            }
        }
        for (FilePart p : parts) {
            FileLifetimes.addReference(e, p.file());
        }
        StoredVersion v = new StoredVersion(e.index(), !versioned, false, size, etag, e.time(), metadata, parts, ret,
                legalHold);
        putVersion(e, b.id(), k, v);
        Counters.addToCounter(e, Counters.bucketBytes(b.id()), size);
        Counters.addToCounter(e, Counters.bucketVersions(b.id()), 1);
        return new PutResult(v.versionId(), etag, e.time(), released);
    }

    static PutResult putObject(Entry e, PutObjectVersion req) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), req.bucket());
        byte[] k = keyBytes(req.key());
        long sum = 0;
        for (FilePart p : req.parts()) {
            sum += p.file().size();
        }
        if (!req.parts().isEmpty() && sum != req.size()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "size " + req.size() + " but the parts hold " + sum + " bytes");
        }
        return writeVersion(e, b, req.key(), k, req.size(), stripQuotes(req.etag()), req.metadata(), req.parts(),
                req.condition(), req.retention(), req.legalHold(), new ArrayList<>());
    }

    static DeleteResult deleteObject(Entry e, DeleteObjectVersion req) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), req.bucket());
        byte[] k = keyBytes(req.key());
        List<FileRef> released = new ArrayList<>();
        if (req.versionId().isPresent()) {
            StoredVersion v = version(e.txn(), b.id(), k, req.versionId().get());
            if (v == null) {
                return new DeleteResult(Optional.empty(), false, released);
            }
            checkDeletable(v, e.time(), req.bypassGovernanceRetention(), "version " + v.versionId() + " of " + req.key());
            removeVersion(e, b.id(), k, v, released);
            return new DeleteResult(Optional.of(v.versionId()), v.deleteMarker(), released);
        }
        switch (b.versioning()) {
            case ENABLED -> {
                StoredVersion marker = deleteMarker(e, false);
                putVersion(e, b.id(), k, marker);
                return new DeleteResult(Optional.of(marker.versionId()), true, released);
            }
            case SUSPENDED -> {
                StoredVersion old = nullVersion(e.txn(), b.id(), k);
                if (old != null) {
                    checkDeletable(old, e.time(), false, "the null version of " + req.key());
                    removeVersion(e, b.id(), k, old, released);
                }
                StoredVersion marker = deleteMarker(e, true);
                putVersion(e, b.id(), k, marker);
                return new DeleteResult(Optional.of(marker.versionId()), true, released);
            }
            default -> {
                StoredVersion old = nullVersion(e.txn(), b.id(), k);
                if (old != null) {
                    checkDeletable(old, e.time(), false, "the null version of " + req.key());
                    removeVersion(e, b.id(), k, old, released);
                }
                return new DeleteResult(Optional.empty(), false, released);
            }
        }
    }

    private static StoredVersion deleteMarker(Entry e, boolean nullVersion) {
        return new StoredVersion(e.index(), nullVersion, true, 0, "", e.time(), ObjectMetadata.EMPTY, List.of(),
                Optional.empty(), false);
    }

    private static StoredVersion lockTarget(Entry e, Bucket b, byte[] k, String key, Optional<String> versionId)
            throws CatalogException {
        if (!b.objectLockEnabled()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
        }
        StoredVersion v = versionId.isPresent() ? version(e.txn(), b.id(), k, versionId.get())
                : latest(e.txn(), b.id(), k);
        if (v == null) {
            throw versionId.isPresent() ? new CatalogException(ErrorCode.NO_SUCH_VERSION, "no version " + versionId.get() + " of " + key)
                    : new CatalogException(ErrorCode.NO_SUCH_KEY, "no key " + key);
        }
        if (v.deleteMarker()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a delete marker cannot be locked");
        }
        return v;
    }

    static ObjectVersion setRetention(Entry e, String bucketName, String key, Optional<String> versionId,
                                      Optional<Retention> retention, boolean bypass) throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        StoredVersion v = lockTarget(e, b, k, key, versionId);
        Optional<Retention> old = v.retention().filter(r -> r.activeAt(e.time()));
        if (retention.isPresent() && !retention.get().activeAt(e.time())) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "retain-until date must be in the future");
        }
        if (old.isPresent()) {
            Retention o = old.get();
            boolean weakens = retention.isEmpty() || retention.get().retainUntil().isBefore(o.retainUntil())
                    || (o.mode() == RetentionMode.COMPLIANCE && retention.get().mode() != RetentionMode.COMPLIANCE);
            if (weakens && (o.mode() == RetentionMode.COMPLIANCE || !bypass)) {
                throw new CatalogException(ErrorCode.ACCESS_DENIED, "the " + o.mode() + " retention of " + key + " until "
                        + o.retainUntil() + " cannot be shortened or removed" + governanceHint(o.mode()));
            }
        }
        StoredVersion nv = v.withLock(retention, v.legalHold());
        putVersion(e, b.id(), k, nv);
        StoredVersion newest = latest(e.txn(), b.id(), k);
        return nv.toPublic(bucketName, key, newest != null && newest.seq() == nv.seq());
    }

    static ObjectVersion setLegalHold(Entry e, String bucketName, String key, Optional<String> versionId, boolean on)
            throws CatalogException {
        Bucket b = Buckets.bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        StoredVersion v = lockTarget(e, b, k, key, versionId);
        StoredVersion nv = v.withLock(v.retention(), on);
        putVersion(e, b.id(), k, nv);
        StoredVersion newest = latest(e.txn(), b.id(), k);
        return nv.toPublic(bucketName, key, newest != null && newest.seq() == nv.seq());
    }

    // ---- encodings: its records, as stored and as replied ----

    static void objectVersion(Wire.Writer w, ObjectVersion v) {
        w.str(v.bucket()).str(v.key()).str(v.versionId()).bool(v.deleteMarker()).bool(v.latest()).i64(v.size())
                .str(v.etag());
        Codec.instant(w, v.lastModified());
        Codec.metadata(w, v.metadata());
        Codec.list(w, v.parts(), Codec::filePart);
        Codec.retention(w, v.retention());
        w.bool(v.legalHold());
    }

    static ObjectVersion objectVersion(Wire.Reader r) {
        return new ObjectVersion(r.str(), r.str(), r.str(), r.bool(), r.bool(), r.i64(), r.str(), Codec.instant(r),
                Codec.metadata(r), Codec.list(r, Codec::filePart), Codec.retention(r), r.bool());
    }

    static void putRequest(Wire.Writer w, PutObjectVersion p) {
        w.str(p.bucket()).str(p.key()).i64(p.size()).str(p.etag());
        Codec.metadata(w, p.metadata());
        Codec.list(w, p.parts(), Codec::filePart);
        Codec.condition(w, p.condition());
        Codec.retention(w, p.retention());
        w.bool(p.legalHold());
    }

    static PutObjectVersion putRequest(Wire.Reader r) {
        return new PutObjectVersion(r.str(), r.str(), r.i64(), r.str(), Codec.metadata(r), Codec.list(r, Codec::filePart),
                Codec.condition(r), Codec.retention(r), r.bool());
    }

    static void putResult(Wire.Writer w, PutResult p) {
        w.str(p.versionId()).str(p.etag());
        Codec.instant(w, p.lastModified());
        Codec.list(w, p.releasedFiles(), Codec::fileRef);
    }

    static PutResult putResult(Wire.Reader r) {
        return new PutResult(r.str(), r.str(), Codec.instant(r), Codec.list(r, Codec::fileRef));
    }

    static void deleteResult(Wire.Writer w, DeleteResult d) {
        w.str(d.versionId().orElse("")).bool(d.deleteMarker());
        Codec.list(w, d.releasedFiles(), Codec::fileRef);
    }

    static DeleteResult deleteResult(Wire.Reader r) {
        String v = r.str();
        return new DeleteResult(v.isEmpty() ? Optional.empty() : Optional.of(v), r.bool(), Codec.list(r, Codec::fileRef));
    }

    static void deleteRequest(Wire.Writer w, DeleteObjectVersion d) {
        w.str(d.bucket()).str(d.key());
        Codec.optional(w, d.versionId());
        w.bool(d.bypassGovernanceRetention());
    }

    static DeleteObjectVersion deleteRequest(Wire.Reader r) {
        return new DeleteObjectVersion(r.str(), r.str(), Codec.optional(r), r.bool());
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** PUT_OBJECT: {@code PutObjectVersion} → PutResult. */
    static Call<PutResult> putObject(PutObjectVersion request) {
        Objects.requireNonNull(request, "request");
        return new Call<>(Op.PUT_OBJECT, w -> putRequest(w, request), ObjectVersions::putResult);
    }

    static void applyPutObject(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        putResult(out, putObject(e, putRequest(in)));
    }

    /** GET_OBJECT: {@code str bucket | str key | optional str versionId} → ObjectVersion. */
    static Call<ObjectVersion> getObject(String bucket, String key, Optional<String> versionId) {
        return new Call<>(Op.GET_OBJECT, versionFields(bucket, key, versionId), ObjectVersions::objectVersion);
    }

    /** What GET_OBJECT and GET_BUCKET_VERSION ask for: {@code str bucket | str key | optional str versionId}. */
    private static Consumer<Wire.Writer> versionFields(String bucket, String key, Optional<String> versionId) {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        return w -> {
            w.str(bucket).str(key);
            Codec.optional(w, versionId);
        };
    }

    static void answerGetObject(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        objectVersion(out, getObject(r, in.str(), in.str(), Codec.optional(in)));
    }

    /**
     * GET_BUCKET_VERSION: as GET_OBJECT → {@code Bucket | u8 0 | ObjectVersion}, or {@code Bucket | u8 1 | u16 code
     * | str msg} where GET_OBJECT would have answered that error; a missing bucket fails it as GET_BUCKET does.
     */
    static Call<BucketVersion> getBucketVersion(String bucket, String key, Optional<String> versionId) {
        return new Call<>(Op.GET_BUCKET_VERSION, versionFields(bucket, key, versionId), r -> {
            Bucket b = Buckets.bucket(r);
            return r.u8() == 0 ? BucketVersion.found(b, objectVersion(r))
                    : BucketVersion.missing(b, ErrorCode.fromWire(r.u16()), r.str());
        });
    }

    static void answerGetBucketVersion(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out)
            throws CatalogException {
        Bucket b = Buckets.bucket(r, in.str());
        String key = in.str();
        Optional<String> versionId = Codec.optional(in);
        Buckets.bucket(out, b);
        ObjectVersion v;
        try {
            v = getObject(r, b, key, versionId);
        } catch (CatalogException e) {
            out.u8(1).u16(e.code().wire()).str(String.valueOf(e.getMessage()));
            return;
        }
        objectVersion(out.u8(0), v);
    }

    /** DELETE_OBJECT: {@code DeleteObjectVersion} → DeleteResult. */
    static Call<DeleteResult> deleteObject(DeleteObjectVersion request) {
        Objects.requireNonNull(request, "request");
        return new Call<>(Op.DELETE_OBJECT, w -> deleteRequest(w, request), ObjectVersions::deleteResult);
    }

    static void applyDeleteObject(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        deleteResult(out, deleteObject(e, deleteRequest(in)));
    }

    /**
     * DELETE_OBJECTS: {@code list of DeleteObjectVersion} → {@code i32 n}, then per item {@code u8 0 | DeleteResult}
     * or {@code u8 1 | u16 code | str message}. Each item runs under a save point, so a refused one is rolled
     * back alone.
     */
    static Call<List<DeleteOutcome>> deleteObjects(List<DeleteObjectVersion> requests) {
        List<DeleteObjectVersion> items = List.copyOf(requests);
        return batch(Op.DELETE_OBJECTS, items, w -> Codec.list(w, items, ObjectVersions::deleteRequest));
    }

    static void applyDeleteObjects(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        List<DeleteObjectVersion> items = Codec.list(in, ObjectVersions::deleteRequest);
        applyBatch(e, items, out, item -> deleteObject(e, item));
    }

    /**
     * DELETE_OBJECTS_IF_LATEST: {@code list of (DeleteObjectVersion | str latestVersionId | i64 latestModified ms)}
     * → as DELETE_OBJECTS. An item whose key's newest version is no longer the one named fails alone with
     * {@code PRECONDITION_FAILED} (the lifecycle expirer's deletes: issue #24).
     */
    static Call<List<DeleteOutcome>> deleteObjectsIfLatest(List<DeleteIfLatest> requests) {
        List<DeleteIfLatest> items = List.copyOf(requests);
        return batch(Op.DELETE_OBJECTS_IF_LATEST, items.stream().map(DeleteIfLatest::delete).toList(),
                w -> Codec.list(w, items, ObjectVersions::deleteIfLatest));
    }

    static void applyDeleteObjectsIfLatest(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        List<DeleteIfLatest> items = Codec.list(in, ObjectVersions::deleteIfLatest);
        applyBatch(e, items, out, item -> {
            checkLatest(e, item);
            return deleteObject(e, item.delete());
        });
    }

    private static void checkLatest(Entry e, DeleteIfLatest item) throws CatalogException {
        DeleteObjectVersion d = item.delete();
        StoredVersion newest = latest(e.txn(), Buckets.bucket(e.txn(), d.bucket()).id(), keyBytes(d.key()));
        if (newest == null || !newest.versionId().equals(item.latestVersionId())
                || !newest.lastModified().equals(item.latestModified())) {
            throw new CatalogException(ErrorCode.PRECONDITION_FAILED, "the newest version of " + d.key()
                    + " is no longer " + item.latestVersionId() + " of " + item.latestModified());
        }
    }

    private static void deleteIfLatest(Wire.Writer w, DeleteIfLatest d) {
        deleteRequest(w, d.delete());
        w.str(d.latestVersionId());
        Codec.instant(w, d.latestModified());
    }

    private static DeleteIfLatest deleteIfLatest(Wire.Reader r) {
        return new DeleteIfLatest(deleteRequest(r), r.str(), Codec.instant(r));
    }

    /** One delete of a batch, applied under its own save point. */
    @FunctionalInterface
    private interface BatchItem<T> {
        DeleteResult apply(T item) throws CatalogException;
    }

    /** A batch call whose reply is one outcome per delete, in order. */
    private static Call<List<DeleteOutcome>> batch(Op op, List<DeleteObjectVersion> deletes,
                                                   Consumer<Wire.Writer> fields) {
        if (deletes.size() > Catalog.MAX_BATCH) {
            throw new IllegalArgumentException("at most " + Catalog.MAX_BATCH + " deletes per batch: " + deletes.size());
        }
        return new Call<>(op, fields, r -> {
            int n = r.i32();
            if (n != deletes.size()) {
                throw new IllegalArgumentException(n + " outcomes for " + deletes.size() + " deletes");
            }
            List<DeleteOutcome> out = new ArrayList<>(n);
            for (DeleteObjectVersion item : deletes) {
                if (r.u8() == 0) {
                    out.add(new DeleteOutcome(item, Optional.of(deleteResult(r)), Optional.empty(), ""));
                } else {
                    ErrorCode code = ErrorCode.fromWire(r.u16());
                    out.add(new DeleteOutcome(item, Optional.empty(), Optional.of(code), r.str()));
                }
            }
            return out;
        });
    }

    /** Applies each item under a save point, so a refused one is rolled back alone. */
    private static <T> void applyBatch(Entry e, List<T> items, Wire.Writer out, BatchItem<T> apply)
            throws CatalogException {
        if (items.size() > Catalog.MAX_BATCH) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "at most " + Catalog.MAX_BATCH + " deletes per batch");
        }
        out.i32(items.size());
        for (T item : items) {
            e.txn().savePoint();
            try {
                DeleteResult r = apply.apply(item);
                out.u8(0);
                deleteResult(out, r);
            } catch (CatalogException ex) {
                e.txn().rollBack();
                out.u8(1).u16(ex.code().wire()).str(String.valueOf(ex.getMessage()));
            }
        }
    }

    static Call<ObjectVersion> setRetention(String bucket, String key, Optional<String> versionId,
                                            Optional<Retention> retention, boolean bypass) {
        return new Call<>(Op.SET_RETENTION, w -> {
            w.str(bucket).str(key);
            Codec.optional(w, versionId);
            Codec.retention(w, retention);
            w.bool(bypass);
        }, ObjectVersions::objectVersion);
    }

    static void applySetRetention(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String b = in.str();
        String k = in.str();
        Optional<String> v = Codec.optional(in);
        objectVersion(out, setRetention(e, b, k, v, Codec.retention(in), in.bool()));
    }

    /** SET_LEGAL_HOLD: {@code str bucket | str key | optional str versionId | bool on} → ObjectVersion. */
    static Call<ObjectVersion> setLegalHold(String bucket, String key, Optional<String> versionId, boolean on) {
        return new Call<>(Op.SET_LEGAL_HOLD, w -> {
            w.str(bucket).str(key);
            Codec.optional(w, versionId);
            w.bool(on);
        }, ObjectVersions::objectVersion);
    }

    static void applySetLegalHold(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String b = in.str();
        String k = in.str();
        Optional<String> v = Codec.optional(in);
        objectVersion(out, setLegalHold(e, b, k, v, in.bool()));
    }
}
