package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.BucketUsage;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.catalog.VersioningState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.rocksdb.RocksIterator;

/**
 * Buckets: their records in {@link Table#BUCKETS} (name → Bucket), versioning and default retention, the
 * per-bucket quota (a {@link Table#COUNTERS} row), usage, and the commands that change or read them.
 *
 * <p>Deterministic and stateless, as every catalog subject: a function of (state, command, log index,
 * leader time). A typed answer ({@link CatalogException}) is thrown before or instead of writes.
 */
final class Buckets {
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final byte[] NEXT_BUCKET_ID = Keys.utf8("nextBucketId");

    private Buckets() {
    }

    static Bucket bucket(RocksCatalogStore.Reads r, String name) throws CatalogException {
        byte[] v = r.get(Table.BUCKETS, Keys.utf8(name));
        if (v == null) {
            throw new CatalogException(ErrorCode.NO_SUCH_BUCKET, "no bucket " + name);
        }
        return bucket(new Wire.Reader(v));
    }

    static void putBucket(Entry e, Bucket b) {
        Wire.Writer w = new Wire.Writer();
        bucket(w, b);
        e.txn().put(Table.BUCKETS, Keys.utf8(b.name()), w.toByteArray());
    }

    /** Whether {@code name} is a bucket name S3 accepts (3 to 63 of a-z 0-9 . -, no "..", alphanumeric ends). */
    static boolean validName(String name) {
        return BUCKET_NAME.matcher(name).matches() && !name.contains("..");
    }

    static Bucket createBucket(Entry e, String name, String owner, boolean lock, String cannedAcl)
            throws CatalogException {
        if (!validName(name)) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad bucket name '" + name + "'");
        }
        byte[] existing = e.txn().get(Table.BUCKETS, Keys.utf8(name));
        if (existing != null) {
            Bucket b = bucket(new Wire.Reader(existing));
            throw new CatalogException(b.ownerAccessKeyId().equals(owner) ? ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU
                    : ErrorCode.BUCKET_ALREADY_EXISTS, "bucket " + name + " exists");
        }
        int id = Math.toIntExact(Counters.nextCounter(e, NEXT_BUCKET_ID, 1, 1));
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
                    throw new CatalogException(ErrorCode.BUCKET_NOT_EMPTY, "bucket " + name + " still holds "
                            + (t == Table.VERSIONS ? "versions" : "multipart uploads"));
                }
            }
        }
        e.txn().delete(Table.BUCKETS, Keys.utf8(name));
        e.txn().delete(Table.COUNTERS, Counters.bucketBytes(b.id()));
        e.txn().delete(Table.COUNTERS, Counters.bucketVersions(b.id()));
        e.txn().delete(Table.COUNTERS, Counters.bucketQuota(b.id()));
        AclCommands.forget(e, b);
        BucketLifecycles.forget(e, b);
    }

    /** Sets (or, with 0, removes) a bucket's quota; it is kept in the counters table, keyed by bucket id. */
    static void setBucketQuota(Entry e, String name, long quotaBytes) throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        if (quotaBytes < 0) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a bucket quota must be >= 0: " + quotaBytes);
        }
        if (quotaBytes == 0) {
            e.txn().delete(Table.COUNTERS, Counters.bucketQuota(b.id()));
        } else {
            e.txn().put(Table.COUNTERS, Counters.bucketQuota(b.id()), Wire.u64(quotaBytes));
        }
    }

    static List<Bucket> listBuckets(RocksCatalogStore.Reads r) {
        List<Bucket> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.BUCKETS)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(bucket(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    static Bucket setVersioning(Entry e, String name, VersioningState state) throws CatalogException {
        Bucket b = bucket(e.txn(), name);
        if (state == VersioningState.UNVERSIONED) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "versioning can only be Enabled or Suspended");
        }
        if (b.objectLockEnabled() && state != VersioningState.ENABLED) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "versioning cannot be suspended on an Object Lock bucket");
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
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bucket " + name + " has no Object Lock");
        }
        if (mode.isPresent() && (days < 1 || days > 36_500)) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "default retention days must be in [1, 36500]: " + days);
        }
        Bucket nb = new Bucket(b.name(), b.id(), b.ownerAccessKeyId(), b.createdAt(), b.versioning(), true, mode,
                mode.isPresent() ? days : 0);
        putBucket(e, nb);
        return nb;
    }

    static Usage usage(RocksCatalogStore.Reads r, Optional<String> bucketName)
            throws CatalogException {
        long capacity = capacity(r);
        if (bucketName.isEmpty()) {
            return new Usage(Counters.counter(r, Counters.USED_BYTES), Counters.counter(r, Counters.LIVE_FILES), capacity);
        }
        return usage(r, bucket(r, bucketName.get()), capacity);
    }

    /** The sum of the registered vaults' capacities. */
    private static long capacity(RocksCatalogStore.Reads r) {
        long capacity = 0;
        for (VaultInfo v : ClusterMap.listVaults(r)) {
            capacity += v.capacityBytes();
        }
        return capacity;
    }

    private static Usage usage(RocksCatalogStore.Reads r, Bucket b, long capacity) {
        return new Usage(Counters.counter(r, Counters.bucketBytes(b.id())),
                Counters.counter(r, Counters.bucketVersions(b.id())), capacity, Counters.counter(r, Counters.bucketQuota(b.id())));
    }

    // ---- encodings: its records, as stored and as replied ----

    static void bucket(Wire.Writer w, Bucket b) {
        w.str(b.name()).i32(b.id()).str(b.ownerAccessKeyId());
        Codec.instant(w, b.createdAt());
        w.u8(b.versioning().ordinal()).bool(b.objectLockEnabled());
        w.u8(b.defaultRetentionMode().map(m -> 1 + m.ordinal()).orElse(0)).i32(b.defaultRetentionDays());
    }

    static Bucket bucket(Wire.Reader r) {
        String name = r.str();
        int id = r.i32();
        String owner = r.str();
        Instant created = Codec.instant(r);
        VersioningState v = VersioningState.values()[r.u8()];
        boolean lock = r.bool();
        int mode = r.u8();
        int days = r.i32();
        return new Bucket(name, id, owner, created, v, lock,
                mode == 0 ? Optional.empty() : Optional.of(RetentionMode.values()[mode - 1]), days);
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /**
     * CREATE_BUCKET: {@code str name | str owner | bool objectLock | str cannedAcl} → Bucket. Entries logged
     * before ACLs existed end after {@code objectLock} and create a private bucket.
     */
    static Call<Bucket> createBucket(String name, String ownerAccessKeyId, boolean objectLockEnabled, String cannedAcl) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ownerAccessKeyId, "ownerAccessKeyId");
        Objects.requireNonNull(cannedAcl, "cannedAcl");
        return new Call<>(Op.CREATE_BUCKET,
                w -> w.str(name).str(ownerAccessKeyId).bool(objectLockEnabled).str(cannedAcl), Buckets::bucket);
    }

    static void applyCreateBucket(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        bucket(out, createBucket(e, in.str(), in.str(), in.bool(), in.atEnd() ? Catalog.PRIVATE_ACL : in.str()));
    }

    /** DELETE_BUCKET: {@code str name} → nothing. */
    static Call<Void> deleteBucket(String name) {
        Objects.requireNonNull(name, "name");
        return Call.of(Op.DELETE_BUCKET, w -> w.str(name));
    }

    static void applyDeleteBucket(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        deleteBucket(e, in.str());
    }

    /** GET_BUCKET: {@code str name} → Bucket. */
    static Call<Bucket> getBucket(String name) {
        Objects.requireNonNull(name, "name");
        return new Call<>(Op.GET_BUCKET, w -> w.str(name), Buckets::bucket);
    }

    static void answerGetBucket(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        bucket(out, bucket(r, in.str()));
    }

    /** LIST_BUCKETS: nothing → list of Bucket. */
    static Call<List<Bucket>> listBuckets() {
        return new Call<>(Op.LIST_BUCKETS, w -> { }, r -> Codec.list(r, Buckets::bucket));
    }

    static void answerListBuckets(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, listBuckets(r), Buckets::bucket);
    }

    /** SET_VERSIONING: {@code str bucket | u8 VersioningState} → Bucket. */
    static Call<Bucket> setVersioning(String bucket, VersioningState state) {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(state, "state");
        return new Call<>(Op.SET_VERSIONING, w -> w.str(bucket).u8(state.ordinal()), Buckets::bucket);
    }

    static void applySetVersioning(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        bucket(out, setVersioning(e, in.str(), VersioningState.values()[in.u8()]));
    }

    /** SET_DEFAULT_RETENTION: {@code str bucket | u8 mode (0 none, 1 + ordinal) | i32 days} → Bucket. */
    static Call<Bucket> setDefaultRetention(String bucket, Optional<RetentionMode> mode, int days) {
        Objects.requireNonNull(bucket, "bucket");
        return new Call<>(Op.SET_DEFAULT_RETENTION,
                w -> w.str(bucket).u8(mode.map(m -> 1 + m.ordinal()).orElse(0)).i32(days), Buckets::bucket);
    }

    static void applySetDefaultRetention(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        String b = in.str();
        int mode = in.u8();
        bucket(out, setDefaultRetention(e, b, mode == 0 ? Optional.empty() : Optional.of(RetentionMode.values()[mode - 1]),
                in.i32()));
    }

    /** SET_BUCKET_QUOTA: {@code str bucket | i64 bytes (0 removes it)} → nothing. */
    static Call<Void> setBucketQuota(String bucket, long quotaBytes) {
        Objects.requireNonNull(bucket, "bucket");
        return Call.of(Op.SET_BUCKET_QUOTA, w -> w.str(bucket).i64(quotaBytes));
    }

    static void applySetBucketQuota(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        setBucketQuota(e, in.str(), in.i64());
    }

    /** USAGE: {@code optional str bucket} → {@code i64 storedBytes | i64 objectVersions | i64 capacity | i64 quota}. */
    static Call<Usage> usage(Optional<String> bucket) {
        return new Call<>(Op.USAGE, w -> Codec.optional(w, bucket), Buckets::usage);
    }

    static void answerUsage(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        usage(out, usage(r, Codec.optional(in)));
    }

    private static void usage(Wire.Writer out, Usage u) {
        out.i64(u.storedBytes()).i64(u.objectVersions()).i64(u.capacityBytes()).i64(u.quotaBytes());
    }

    private static Usage usage(Wire.Reader r) {
        return new Usage(r.i64(), r.i64(), r.i64(), r.i64());
    }

    /** GET_BUCKET_USAGE: {@code str bucket} → Bucket, then its usage as USAGE answers it. */
    static Call<BucketUsage> bucketUsage(String bucket) {
        Objects.requireNonNull(bucket, "bucket");
        return new Call<>(Op.GET_BUCKET_USAGE, w -> w.str(bucket), r -> new BucketUsage(bucket(r), usage(r)));
    }

    static void answerBucketUsage(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) throws CatalogException {
        Bucket b = bucket(r, in.str());
        bucket(out, b);
        usage(out, usage(r, b, capacity(r)));
    }
}
