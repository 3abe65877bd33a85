package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CompletedPart;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListObjectsQuery;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectListing;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PartListing;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.PutResult;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.UploadedPart;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.rocksdb.RocksIterator;

/**
 * The catalog's semantics over a {@link RocksCatalogStore}: every write operation as a function
 * of (state, command, log index, leader time), and every read over one consistent view.
 *
 * <p>Deterministic: no clock, no randomness, no iteration over unordered collections. A typed
 * answer ({@link CatalogException}) is thrown before or instead of writes; the caller discards the
 * transaction's writes then.
 *
 * <p>Stateless and thread-safe; the store's single-writer rule applies to the transactions.
 */
final class CatalogOperations {
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final byte[] NEXT_BUCKET_ID = Keys.utf8("nextBucketId");
    private static final byte[] NEXT_DELETION = Keys.utf8("nextDeletion");
    private static final int MAX_KEY_BYTES = 1024;

    /** What an applying write knows besides the store: its log position and the leader's time. */
    record Entry(RocksCatalogStore.Txn txn, long index, Instant time) {
    }

    private CatalogOperations() {
    }

    static CatalogException fail(ErrorCode code, String message) {
        return new CatalogException(code, message);
    }

    // ---- buckets ----

    static Bucket bucket(RocksCatalogStore.Reads r, String name) throws CatalogException {
        byte[] v = r.get(Table.BUCKETS, Keys.utf8(name));
        if (v == null) {
            throw fail(ErrorCode.NO_SUCH_BUCKET, "no bucket " + name);
        }
        return Codec.bucket(new Wire.Reader(v));
    }

    private static void putBucket(Entry e, Bucket b) {
        Wire.Writer w = new Wire.Writer();
        Codec.bucket(w, b);
        e.txn().put(Table.BUCKETS, Keys.utf8(b.name()), w.toByteArray());
    }

    static Bucket createBucket(Entry e, String name, String owner, boolean lock, String cannedAcl)
            throws CatalogException {
        if (!BUCKET_NAME.matcher(name).matches() || name.contains("..")) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bad bucket name '" + name + "'");
        }
        byte[] existing = e.txn().get(Table.BUCKETS, Keys.utf8(name));
        if (existing != null) {
            Bucket b = Codec.bucket(new Wire.Reader(existing));
            throw fail(b.ownerAccessKeyId().equals(owner) ? ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU
                    : ErrorCode.BUCKET_ALREADY_EXISTS, "bucket " + name + " exists");
        }
        int id = Math.toIntExact(nextCounter(e, NEXT_BUCKET_ID, 1, 1));
        Bucket b = new Bucket(name, id, owner, e.time(), lock ? VersioningState.ENABLED : VersioningState.UNVERSIONED,
                lock, Optional.empty(), 0);
        putBucket(e, b);
        AclCommands.setBucketAcl(e, b, cannedAcl);
        return b;
    }

    static void deleteBucket(Entry e, String name) throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        byte[] prefix = Keys.bucketPrefix(b.id());
        for (Table t : new Table[] {Table.VERSIONS, Table.UPLOADS}) {
            try (RocksIterator it = e.txn().iterator(t)) {
                it.seek(prefix);
                if (it.isValid() && Keys.startsWith(it.key(), prefix)) {
                    throw fail(ErrorCode.BUCKET_NOT_EMPTY, "bucket " + name + " still holds "
                            + (t == Table.VERSIONS ? "versions" : "multipart uploads"));
                }
            }
        }
        e.txn().delete(Table.BUCKETS, Keys.utf8(name));
        e.txn().delete(Table.COUNTERS, bucketBytes(b.id()));
        e.txn().delete(Table.COUNTERS, bucketVersions(b.id()));
        e.txn().delete(Table.COUNTERS, bucketQuota(b.id()));
        AclCommands.forget(e, b);
    }

    /** Sets (or, with 0, removes) a bucket's quota; it is kept in the counters table, keyed by bucket id. */
    static void setBucketQuota(Entry e, String name, long quotaBytes) throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        if (quotaBytes < 0) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "a bucket quota must be >= 0: " + quotaBytes);
        }
        if (quotaBytes == 0) {
            e.txn().delete(Table.COUNTERS, bucketQuota(b.id()));
        } else {
            e.txn().put(Table.COUNTERS, bucketQuota(b.id()), Wire.u64(quotaBytes));
        }
    }

    static List<Bucket> listBuckets(RocksCatalogStore.Reads r) {
        List<Bucket> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.BUCKETS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(Codec.bucket(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static Bucket setVersioning(Entry e, String name, VersioningState state) throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        if (state == VersioningState.UNVERSIONED) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "versioning can only be Enabled or Suspended");
        }
        if (b.objectLockEnabled() && state != VersioningState.ENABLED) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "versioning cannot be suspended on an Object Lock bucket");
        }
        Bucket nb = new Bucket(b.name(), b.id(), b.ownerAccessKeyId(), b.createdAt(), state, b.objectLockEnabled(),
                b.defaultRetentionMode(), b.defaultRetentionDays());
        putBucket(e, nb);
        return nb;
    }

    static Bucket setDefaultRetention(Entry e, String name, Optional<RetentionMode> mode, int days)
            throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        if (!b.objectLockEnabled()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bucket " + name + " has no Object Lock");
        }
        if (mode.isPresent() && (days < 1 || days > 36_500)) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "default retention days must be in [1, 36500]: " + days);
        }
        Bucket nb = new Bucket(b.name(), b.id(), b.ownerAccessKeyId(), b.createdAt(), b.versioning(), true, mode,
                mode.isPresent() ? days : 0);
        putBucket(e, nb);
        return nb;
    }

    // ---- versions ----

    static byte[] keyBytes(String key) throws CatalogException {
        byte[] k = Keys.utf8(key);
        if (k.length == 0 || k.length > MAX_KEY_BYTES || key.indexOf('\0') >= 0) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "key must be 1.." + MAX_KEY_BYTES + " UTF-8 bytes without U+0000");
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
            throw fail(ErrorCode.INVALID_ARGUMENT, "invalid version id '" + versionId + "'");
        }
        byte[] v = r.get(Table.VERSIONS, Keys.versionKey(bucketId, key, seq));
        return v == null ? null : StoredVersion.decode(v);
    }

    static ObjectVersion getObject(RocksCatalogStore.Reads r, String bucketName, String key,
                                   Optional<String> versionId) throws CatalogException {
        Bucket b = bucket(r, bucketName);
        byte[] k = keyBytes(key);
        StoredVersion newest = latest(r, b.id(), k);
        if (versionId.isEmpty()) {
            if (newest == null || newest.deleteMarker()) {
                throw fail(ErrorCode.NO_SUCH_KEY, "no key " + key + " in " + bucketName
                        + (newest != null ? " (latest version is a delete marker)" : ""));
            }
            return newest.toPublic(bucketName, key, true);
        }
        StoredVersion v = version(r, b.id(), k, versionId.get());
        if (v == null) {
            throw fail(ErrorCode.NO_SUCH_VERSION, "no version " + versionId.get() + " of " + key + " in " + bucketName);
        }
        return v.toPublic(bucketName, key, newest != null && newest.seq() == v.seq());
    }

    private static void checkDeletable(StoredVersion v, Instant now, boolean bypassGovernance, String what)
            throws CatalogException {
        if (v.legalHold()) {
            throw fail(ErrorCode.ACCESS_DENIED, what + " is under a legal hold");
        }
        if (v.retention().isPresent() && v.retention().get().activeAt(now)) {
            Retention ret = v.retention().get();
            if (ret.mode() == RetentionMode.COMPLIANCE || !bypassGovernance) {
                throw fail(ErrorCode.ACCESS_DENIED, what + " is retained in " + ret.mode() + " mode until "
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
            addToCounter(e, bucketBytes(bucketId), -v.size());
            addToCounter(e, bucketVersions(bucketId), -1);
        }
        for (FilePart p : v.parts()) {
            release(e, p.file(), released);
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
                    throw fail(ErrorCode.PRECONDITION_FAILED, "If-None-Match: * but " + key + " exists");
                }
            }
            case IF_MATCH -> {
                if (!exists) {
                    throw fail(ErrorCode.NO_SUCH_KEY, "If-Match on " + key + ", which does not exist");
                }
                if (!stripQuotes(c.etag()).equals(current.etag()) && !"*".equals(c.etag())) {
                    throw fail(ErrorCode.PRECONDITION_FAILED, "If-Match " + c.etag() + " but " + key + " has ETag "
                            + current.etag());
                }
            }
            default -> throw new IllegalStateException("condition " + c.kind());
        }
    }

    private static String stripQuotes(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1) : etag;
    }

    private static Optional<Retention> effectiveRetention(Bucket b, Optional<Retention> asked, Instant now)
            throws CatalogException {
        if (asked.isPresent()) {
            if (!b.objectLockEnabled()) {
                throw fail(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
            }
            if (!asked.get().activeAt(now)) {
                throw fail(ErrorCode.INVALID_ARGUMENT, "retain-until date must be in the future");
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
    private static PutResult writeVersion(Entry e, Bucket b, String key, byte[] k, long size, String etag,
                                          ObjectMetadata metadata, List<FilePart> parts, WriteCondition condition,
                                          Optional<Retention> retention, boolean legalHold,
                                          List<FileRef> released) throws CatalogException {
        StoredVersion current = latest(e.txn(), b.id(), k);
        checkCondition(current, condition, key);
        if (legalHold && !b.objectLockEnabled()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
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
            addReference(e, p.file());
        }
        StoredVersion v = new StoredVersion(e.index(), !versioned, false, size, etag, e.time(), metadata, parts, ret,
                legalHold);
        putVersion(e, b.id(), k, v);
        addToCounter(e, bucketBytes(b.id()), size);
        addToCounter(e, bucketVersions(b.id()), 1);
        return new PutResult(v.versionId(), etag, e.time(), released);
    }

    static PutResult putObject(Entry e, PutObjectVersion req) throws CatalogException {
        Bucket b = bucket(e.txn(), req.bucket());
        byte[] k = keyBytes(req.key());
        long sum = 0;
        for (FilePart p : req.parts()) {
            sum += p.file().size();
        }
        if (!req.parts().isEmpty() && sum != req.size()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "size " + req.size() + " but the parts hold " + sum + " bytes");
        }
        return writeVersion(e, b, req.key(), k, req.size(), stripQuotes(req.etag()), req.metadata(), req.parts(),
                req.condition(), req.retention(), req.legalHold(), new ArrayList<>());
    }

    static DeleteResult deleteObject(Entry e, DeleteObjectVersion req) throws CatalogException {
        Bucket b = bucket(e.txn(), req.bucket());
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
            throw fail(ErrorCode.INVALID_ARGUMENT, "bucket " + b.name() + " has no Object Lock");
        }
        StoredVersion v = versionId.isPresent() ? version(e.txn(), b.id(), k, versionId.get())
                : latest(e.txn(), b.id(), k);
        if (v == null) {
            throw versionId.isPresent() ? fail(ErrorCode.NO_SUCH_VERSION, "no version " + versionId.get() + " of " + key)
                    : fail(ErrorCode.NO_SUCH_KEY, "no key " + key);
        }
        if (v.deleteMarker()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "a delete marker cannot be locked");
        }
        return v;
    }

    static ObjectVersion setRetention(Entry e, String bucketName, String key, Optional<String> versionId,
                                      Optional<Retention> retention, boolean bypass) throws CatalogException {
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        StoredVersion v = lockTarget(e, b, k, key, versionId);
        Optional<Retention> old = v.retention().filter(r -> r.activeAt(e.time()));
        if (retention.isPresent() && !retention.get().activeAt(e.time())) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "retain-until date must be in the future");
        }
        if (old.isPresent()) {
            Retention o = old.get();
            boolean weakens = retention.isEmpty() || retention.get().retainUntil().isBefore(o.retainUntil())
                    || (o.mode() == RetentionMode.COMPLIANCE && retention.get().mode() != RetentionMode.COMPLIANCE);
            if (weakens && (o.mode() == RetentionMode.COMPLIANCE || !bypass)) {
                throw fail(ErrorCode.ACCESS_DENIED, "the " + o.mode() + " retention of " + key + " until "
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
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        StoredVersion v = lockTarget(e, b, k, key, versionId);
        StoredVersion nv = v.withLock(v.retention(), on);
        putVersion(e, b.id(), k, nv);
        StoredVersion newest = latest(e.txn(), b.id(), k);
        return nv.toPublic(bucketName, key, newest != null && newest.seq() == nv.seq());
    }

    // ---- listing ----

    /** The common prefix {@code key} rolls up into, or null. */
    private static byte[] commonPrefix(byte[] key, byte[] prefix, byte[] delimiter) {
        if (delimiter.length == 0) {
            return null;
        }
        outer:
        for (int i = prefix.length; i + delimiter.length <= key.length; i++) {
            for (int j = 0; j < delimiter.length; j++) {
                if (key[i + j] != delimiter[j]) {
                    continue outer;
                }
            }
            return Arrays.copyOf(key, i + delimiter.length);
        }
        return null;
    }

    static String encodeToken(String after) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Keys.utf8(after));
    }

    static String decodeToken(String token) throws CatalogException {
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "invalid continuation token");
        }
    }

    static ObjectListing listObjects(RocksCatalogStore.Reads r, ListObjectsQuery q) throws CatalogException {
        Bucket b = bucket(r, q.bucket());
        String markerString = q.continuationToken().isPresent() ? decodeToken(q.continuationToken().get())
                : q.startAfter();
        byte[] marker = Keys.utf8(markerString);
        byte[] prefix = Keys.utf8(q.prefix());
        byte[] delimiter = Keys.utf8(q.delimiter());
        byte[] scope = Keys.keyPrefix(b.id(), prefix);
        byte[] start = scope;
        if (!markerString.isEmpty()) {
            byte[] after = Keys.afterKey(b.id(), marker);
            if (Keys.compare(after, start) > 0) {
                start = after;
            }
        }
        List<ObjectVersion> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = "";
        boolean truncated = false;
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            it.seek(start);
            while (it.isValid() && Keys.startsWith(it.key(), scope)) {
                byte[] dbKey = it.key();
                byte[] key = Keys.objectKeyOf(dbKey);
                byte[] cp = commonPrefix(key, prefix, delimiter);
                if (cp != null && Keys.compare(cp, marker) <= 0 && !markerString.isEmpty()) {
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    continue;
                }
                StoredVersion newest = StoredVersion.decode(it.value());
                if (newest.deleteMarker()) {
                    it.seek(Keys.afterKey(b.id(), key));
                    continue;
                }
                if (objects.size() + prefixes.size() >= q.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (cp != null) {
                    last = new String(cp, StandardCharsets.UTF_8);
                    prefixes.add(last);
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                } else {
                    last = new String(key, StandardCharsets.UTF_8);
                    objects.add(newest.toPublic(q.bucket(), last, true));
                    it.seek(Keys.afterKey(b.id(), key));
                }
            }
        }
        return new ObjectListing(objects, prefixes, truncated,
                truncated ? Optional.of(encodeToken(last)) : Optional.empty(),
                truncated ? Optional.of(last) : Optional.empty());
    }

    static VersionListing listVersions(RocksCatalogStore.Reads r, ListVersionsQuery q) throws CatalogException {
        Bucket b = bucket(r, q.bucket());
        byte[] marker = Keys.utf8(q.keyMarker());
        byte[] prefix = Keys.utf8(q.prefix());
        byte[] delimiter = Keys.utf8(q.delimiter());
        byte[] scope = Keys.keyPrefix(b.id(), prefix);
        byte[] start = scope;
        byte[] skipExact = null;
        boolean midKey = false;
        if (!q.keyMarker().isEmpty()) {
            byte[] after = Keys.afterKey(b.id(), marker);
            if (!q.versionIdMarker().isEmpty()) {
                StoredVersion mv = version(r, b.id(), marker, q.versionIdMarker());
                if (mv != null) {
                    after = Keys.versionKey(b.id(), marker, mv.seq());
                    skipExact = after;
                    midKey = true;
                }
            }
            if (Keys.compare(after, start) > 0) {
                start = after;
            }
        }
        List<ObjectVersion> versions = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String lastKey = "";
        String lastVersion = "";
        boolean truncated = false;
        byte[] previousKey = midKey ? marker : null;
        try (RocksIterator it = r.iterator(Table.VERSIONS)) {
            it.seek(start);
            if (skipExact != null && it.isValid() && Arrays.equals(it.key(), skipExact)) {
                it.next();
            }
            while (it.isValid() && Keys.startsWith(it.key(), scope)) {
                byte[] dbKey = it.key();
                byte[] key = Keys.objectKeyOf(dbKey);
                byte[] cp = commonPrefix(key, prefix, delimiter);
                if (cp != null && !q.keyMarker().isEmpty() && Keys.compare(cp, marker) <= 0) {
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    continue;
                }
                if (versions.size() + prefixes.size() >= q.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (cp != null) {
                    lastKey = new String(cp, StandardCharsets.UTF_8);
                    lastVersion = "";
                    prefixes.add(lastKey);
                    it.seek(Keys.successor(Keys.keyPrefix(b.id(), cp)));
                    previousKey = null;
                    continue;
                }
                boolean latest = previousKey == null || !Arrays.equals(previousKey, key);
                StoredVersion v = StoredVersion.decode(it.value());
                lastKey = new String(key, StandardCharsets.UTF_8);
                lastVersion = v.versionId();
                versions.add(v.toPublic(q.bucket(), lastKey, latest));
                previousKey = key;
                it.next();
            }
        }
        return new VersionListing(versions, prefixes, truncated, truncated ? lastKey : "",
                truncated ? lastVersion : "");
    }

    // ---- multipart ----

    private static MultipartUpload upload(RocksCatalogStore.Reads r, Bucket b, byte[] k, String uploadId)
            throws CatalogException {
        long seq = Keys.uploadSeqOf(uploadId);
        byte[] v = seq < 0 ? null : r.get(Table.UPLOADS, Keys.uploadKey(b.id(), k, seq));
        if (v == null) {
            throw fail(ErrorCode.NO_SUCH_UPLOAD, "no upload " + uploadId + " in " + b.name());
        }
        return Codec.upload(new Wire.Reader(v));
    }

    static MultipartUpload createUpload(Entry e, String bucketName, String key, ObjectMetadata metadata,
                                        Optional<Retention> retention, boolean legalHold) throws CatalogException {
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        if ((retention.isPresent() || legalHold) && !b.objectLockEnabled()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bucket " + bucketName + " has no Object Lock");
        }
        MultipartUpload u = new MultipartUpload(bucketName, key, Keys.uploadId(e.index()), e.time(), metadata,
                retention, legalHold);
        Wire.Writer w = new Wire.Writer();
        Codec.upload(w, u);
        e.txn().put(Table.UPLOADS, Keys.uploadKey(b.id(), k, e.index()), w.toByteArray());
        return u;
    }

    private static List<UploadedPart> parts(RocksCatalogStore.Reads r, long uploadSeq, int after, int limit) {
        List<UploadedPart> out = new ArrayList<>();
        byte[] prefix = Wire.u64(uploadSeq);
        try (RocksIterator it = r.iterator(Table.PARTS)) {
            for (it.seek(Keys.partKey(uploadSeq, after + 1)); it.isValid() && Keys.startsWith(it.key(), prefix)
                    && out.size() < limit; it.next()) {
                out.add(Codec.part(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static List<FileRef> putPart(Entry e, String bucketName, String key, String uploadId, int partNumber, String etag,
                                 FileRef file, Map<String, String> checksums) throws CatalogException {
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        MultipartUpload u = upload(e.txn(), b, k, uploadId);
        if (partNumber < 1 || partNumber > 10_000) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "part number must be in [1, 10000]: " + partNumber);
        }
        long seq = Keys.uploadSeqOf(u.uploadId());
        byte[] pk = Keys.partKey(seq, partNumber);
        List<FileRef> released = new ArrayList<>();
        addReference(e, file);
        byte[] old = e.txn().get(Table.PARTS, pk);
        if (old != null) {
            release(e, Codec.part(new Wire.Reader(old)).file(), released);
        }
        Wire.Writer w = new Wire.Writer();
        Codec.part(w, new UploadedPart(partNumber, stripQuotes(etag), file, e.time(), checksums));
        e.txn().put(Table.PARTS, pk, w.toByteArray());
        return released;
    }

    static PartListing listParts(RocksCatalogStore.Reads r, String bucketName, String key, String uploadId,
                                 int marker, int maxParts) throws CatalogException {
        Bucket b = bucket(r, bucketName);
        MultipartUpload u = upload(r, b, keyBytes(key), uploadId);
        if (maxParts < 0 || marker < 0) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bad part marker or max-parts");
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
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        MultipartUpload u = upload(e.txn(), b, k, uploadId);
        long seq = Keys.uploadSeqOf(uploadId);
        if (completed.isEmpty()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "a multipart upload needs at least one part");
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
                throw fail(ErrorCode.INVALID_PART_ORDER, "parts must be listed in ascending order");
            }
            previous = c.partNumber();
            UploadedPart p = byNumber.get(c.partNumber());
            if (p == null || !p.etag().equals(stripQuotes(c.etag()))) {
                throw fail(ErrorCode.INVALID_PART, "part " + c.partNumber() + " was not uploaded with ETag " + c.etag());
            }
            if (i < completed.size() - 1 && p.file().size() < minPartBytes) {
                throw fail(ErrorCode.ENTITY_TOO_SMALL, "part " + c.partNumber() + " is " + p.file().size()
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
        PutResult result = writeVersion(e, b, key, k, size, etag, metadata, fileParts, condition, u.retention(),
                u.legalHold(), released);
        for (UploadedPart p : uploaded) {
            release(e, p.file(), released);
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
        Bucket b = bucket(e.txn(), bucketName);
        byte[] k = keyBytes(key);
        upload(e.txn(), b, k, uploadId);
        long seq = Keys.uploadSeqOf(uploadId);
        List<FileRef> released = new ArrayList<>();
        for (UploadedPart p : parts(e.txn(), seq, 0, Integer.MAX_VALUE)) {
            release(e, p.file(), released);
            e.txn().delete(Table.PARTS, Keys.partKey(seq, p.partNumber()));
        }
        e.txn().delete(Table.UPLOADS, Keys.uploadKey(b.id(), k, seq));
        return released;
    }

    static UploadListing listUploads(RocksCatalogStore.Reads r, String bucketName, String prefix, String keyMarker,
                                     String uploadIdMarker, int max) throws CatalogException {
        Bucket b = bucket(r, bucketName);
        if (max < 0) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bad max-uploads " + max);
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
                out.add(Codec.upload(new Wire.Reader(it.value())));
            }
        }
        MultipartUpload last = out.isEmpty() ? null : out.get(out.size() - 1);
        return new UploadListing(out, truncated, truncated && last != null ? last.key() : "",
                truncated && last != null ? last.uploadId() : "");
    }

    // ---- cluster ----

    static VaultInfo registerVault(Entry e, VaultInfo v) throws CatalogException {
        byte[] vk = new Wire.Writer(4).i32(v.vaultId()).toByteArray();
        byte[] old = e.txn().get(Table.VAULTS, vk);
        if (old != null && !Codec.vault(new Wire.Reader(old)).layout().equals(v.layout())) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "vault " + v.vaultId() + " exists with another layout");
        }
        Wire.Writer w = new Wire.Writer();
        Codec.vault(w, new VaultInfo(v.vaultId(), v.layout(), v.capacityBytes(), List.of()));
        e.txn().put(Table.VAULTS, vk, w.toByteArray());
        for (PodInfo p : v.pods()) {
            registerPod(e, p);
        }
        return vaultWithPods(e.txn(), v.vaultId());
    }

    private static VaultInfo vaultWithPods(RocksCatalogStore.Reads r, int vaultId) {
        byte[] vk = new Wire.Writer(4).i32(vaultId).toByteArray();
        byte[] raw = r.get(Table.VAULTS, vk);
        if (raw == null) {
            return null;
        }
        VaultInfo v = Codec.vault(new Wire.Reader(raw));
        List<PodInfo> pods = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.PODS)) {
            for (it.seek(vk); it.isValid() && Keys.startsWith(it.key(), vk); it.next()) {
                pods.add(Codec.pod(new Wire.Reader(it.value())));
            }
        }
        return new VaultInfo(v.vaultId(), v.layout(), v.capacityBytes(), pods);
    }

    static void registerPod(Entry e, PodInfo p) throws CatalogException {
        VaultInfo v = vaultWithPods(e.txn(), p.vaultId());
        if (v == null) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "pod of unregistered vault " + p.vaultId());
        }
        if (p.shardIndex() >= v.layout().dataShards() + v.layout().parityShards()) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "shard index " + p.shardIndex() + " out of vault " + p.vaultId());
        }
        Wire.Writer w = new Wire.Writer();
        Codec.pod(w, p);
        e.txn().put(Table.PODS, Keys.podKey(p.vaultId(), p.shardIndex()), w.toByteArray());
    }

    static PodStatus setPodState(Entry e, int vaultId, int shardIndex, PodState state) throws CatalogException {
        byte[] key = Keys.podKey(vaultId, shardIndex);
        if (e.txn().get(Table.PODS, key) == null) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "no pod " + shardIndex + " registered in vault " + vaultId);
        }
        PodStatus status = new PodStatus(vaultId, shardIndex, state, e.time());
        if (state == PodState.UP) {
            e.txn().delete(Table.POD_STATES, key);
        } else {
            Wire.Writer w = new Wire.Writer();
            Codec.podStatus(w, status);
            e.txn().put(Table.POD_STATES, key, w.toByteArray());
        }
        return status;
    }

    static List<PodStatus> listPodStates(RocksCatalogStore.Reads r) {
        List<PodStatus> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.POD_STATES)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(Codec.podStatus(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static void registerStash(Entry e, StashInfo s) {
        Wire.Writer w = new Wire.Writer();
        Codec.stash(w, s);
        e.txn().put(Table.STASHES, Keys.utf8(s.stashId()), w.toByteArray());
    }

    static List<VaultInfo> listVaults(RocksCatalogStore.Reads r) {
        List<Integer> ids = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.VAULTS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ids.add(new Wire.Reader(it.key()).i32());
            }
        }
        List<VaultInfo> out = new ArrayList<>();
        for (int id : ids) {
            out.add(vaultWithPods(r, id));
        }
        return out;
    }

    static List<StashInfo> listStashes(RocksCatalogStore.Reads r) {
        List<StashInfo> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.STASHES)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(Codec.stash(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static FileIdRange allocateFileIds(Entry e, int vaultId, int count) throws CatalogException {
        if (vaultId < 0 || count < 1 || count > 1_000_000) {
            throw fail(ErrorCode.INVALID_ARGUMENT, "bad file id allocation " + vaultId + " x " + count);
        }
        long first = nextCounter(e, Keys.utf8("nextFileId/" + vaultId), 1, count);
        return new FileIdRange(vaultId, first, count);
    }

    private static final byte[] USED_BYTES = Keys.utf8("usedBytes");
    private static final byte[] LIVE_FILES = Keys.utf8("liveFiles");

    private static byte[] bucketBytes(int bucketId) {
        return Keys.utf8("bucketBytes/" + bucketId);
    }

    private static byte[] bucketVersions(int bucketId) {
        return Keys.utf8("bucketVersions/" + bucketId);
    }

    private static byte[] bucketQuota(int bucketId) {
        return Keys.utf8("bucketQuota/" + bucketId);
    }

    private static void addToCounter(Entry e, byte[] name, long delta) {
        nextCounter(e, name, 0, delta);
    }

    private static long counter(RocksCatalogStore.Reads r, byte[] name) {
        byte[] raw = r.get(Table.COUNTERS, name);
        return raw == null ? 0 : Wire.u64(raw);
    }

    static Usage usage(RocksCatalogStore.Reads r, Optional<String> bucketName)
            throws CatalogException {
        long capacity = 0;
        for (VaultInfo v : listVaults(r)) {
            capacity += v.capacityBytes();
        }
        if (bucketName.isEmpty()) {
            return new Usage(counter(r, USED_BYTES), counter(r, LIVE_FILES), capacity);
        }
        Bucket b = bucket(r, bucketName.get());
        return new Usage(counter(r, bucketBytes(b.id())),
                counter(r, bucketVersions(b.id())), capacity, counter(r, bucketQuota(b.id())));
    }

    /** Returns the counter's value (starting at {@code initial}) and advances it by {@code by}. */
    private static long nextCounter(Entry e, byte[] name, long initial, long by) {
        byte[] raw = e.txn().get(Table.COUNTERS, name);
        long value = raw == null ? initial : Wire.u64(raw);
        e.txn().put(Table.COUNTERS, name, Wire.u64(Math.addExact(value, by)));
        return value;
    }

    // ---- access keys ----

    static AccessKey createAccessKey(Entry e, String id, String secret, String owner, boolean bypass)
            throws CatalogException {
        if (e.txn().get(Table.ACCESS_KEYS, Keys.utf8(id)) != null) {
            throw fail(ErrorCode.CONFLICT, "access key id " + id + " is taken");
        }
        AccessKey k = new AccessKey(id, secret, owner, true, bypass, e.time());
        putAccessKey(e, k);
        return k;
    }

    private static void putAccessKey(Entry e, AccessKey k) {
        Wire.Writer w = new Wire.Writer();
        Codec.accessKey(w, k);
        e.txn().put(Table.ACCESS_KEYS, Keys.utf8(k.accessKeyId()), w.toByteArray());
    }

    static AccessKey lookupAccessKey(RocksCatalogStore.Reads r, String id) throws CatalogException {
        byte[] v = r.get(Table.ACCESS_KEYS, Keys.utf8(id));
        if (v == null) {
            throw fail(ErrorCode.INVALID_ACCESS_KEY, "unknown access key " + id);
        }
        return Codec.accessKey(new Wire.Reader(v));
    }

    static AccessKey disableAccessKey(Entry e, String id) throws CatalogException {
        AccessKey k = lookupAccessKey(e.txn(), id);
        AccessKey nk = new AccessKey(k.accessKeyId(), k.secretKey(), k.owner(), false, k.bypassGovernanceAllowed(),
                k.createdAt());
        putAccessKey(e, nk);
        return nk;
    }

    static List<AccessKey> listAccessKeys(RocksCatalogStore.Reads r) {
        List<AccessKey> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.ACCESS_KEYS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(Codec.accessKey(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    // ---- file lifetimes ----

    private static void addReference(Entry e, FileRef f) {
        byte[] key = Keys.fileKey(f.vaultId(), f.fileId());
        byte[] old = e.txn().get(Table.FILES, key);
        int refs = old == null ? 0 : new Wire.Reader(old).i32();
        if (refs == 0) {
            addToCounter(e, USED_BYTES, f.size());
            addToCounter(e, LIVE_FILES, 1);
        }
        Wire.Writer w = new Wire.Writer().i32(refs + 1);
        Codec.fileRef(w, f);
        e.txn().put(Table.FILES, key, w.toByteArray());
    }

    private static void release(Entry e, FileRef f, List<FileRef> released) {
        byte[] key = Keys.fileKey(f.vaultId(), f.fileId());
        byte[] old = e.txn().get(Table.FILES, key);
        if (old == null) {
            return;
        }
        Wire.Reader r = new Wire.Reader(old);
        int refs = r.i32();
        FileRef stored = Codec.fileRef(r);
        if (refs > 1) {
            Wire.Writer w = new Wire.Writer().i32(refs - 1);
            Codec.fileRef(w, stored);
            e.txn().put(Table.FILES, key, w.toByteArray());
            return;
        }
        e.txn().delete(Table.FILES, key);
        addToCounter(e, USED_BYTES, -stored.size());
        addToCounter(e, LIVE_FILES, -1);
        long id = nextCounter(e, NEXT_DELETION, 1, 1);
        Wire.Writer w = new Wire.Writer();
        Codec.fileRef(w, stored);
        e.txn().put(Table.DELETIONS, Wire.u64(id), w.toByteArray());
        released.add(stored);
    }

    static List<FileDeletion> pendingDeletions(RocksCatalogStore.Reads r, int limit) {
        List<FileDeletion> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.DELETIONS)) {
            for (it.seekToFirst(); it.isValid() && out.size() < limit; it.next()) {
                out.add(new FileDeletion(Wire.u64(it.key()), Codec.fileRef(new Wire.Reader(it.value()))));
            }
        }
        return out;
    }

    static void ackDeletions(Entry e, List<Long> ids) {
        for (long id : ids) {
            e.txn().delete(Table.DELETIONS, Wire.u64(id));
        }
    }
}
