package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.catalog.VaultInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.rocksdb.RocksIterator;

/**
 * The repair queue (issue #20, section 2): degraded files whose missing or corrupt shards a repairer
 * rebuilds, kept durably in {@link Table#REPAIRS}, one row per file.
 *
 * <pre>
 *  key   := u32 vaultId | u64 fileId                 (so a list pages through vaults, then files, in order)
 *  value := u8 format (1) | u32 vaultId | u64 fileId | list of u8 shard | str reason | i64 enqueuedAt, epoch ms
 * </pre>
 *
 * A commit that first refers to a file written with missing shards queues them in its own batch
 * ({@link #enqueueMissedAtWrite}); readers queue chunks they found corrupt or missing through
 * {@code REPAIR_ENQUEUE}. Enqueuing a queued file adds its shards to the row and keeps the first reason and time, so the
 * queue's age is the age of the oldest damage. Removing takes away only the shards named (the ones a
 * repairer rebuilt); shards enqueued meanwhile stay, and the row goes when none is left. The table is a
 * column family of its own: stores and snapshots written before it existed open with it empty.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class RepairQueue {
    private static final int FORMAT = 1;
    private static final Pattern REASON = Pattern.compile("[a-z][a-z0-9-]{0,63}");
    private static final int MAX_LIST = 10_000;
    /** The reason of a row queued by the commit of a file written with missing shards. */
    static final String WRITE_MISSED = "write-missed";

    private RepairQueue() {
    }

    static byte[] key(int vaultId, long fileId) {
        return new Wire.Writer(12).i32(vaultId).i64(fileId).toByteArray();
    }

    static void task(Wire.Writer w, RepairTask t) {
        w.u8(FORMAT).i32(t.vaultId()).i64(t.fileId());
        Codec.list(w, t.shards(), Wire.Writer::u8);
        w.str(t.reason());
        Codec.instant(w, t.enqueuedAt());
    }

    static RepairTask task(Wire.Reader r) {
        int format = r.u8();
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown repair task format " + format);
        }
        return new RepairTask(r.i32(), r.i64(), Codec.list(r, Wire.Reader::u8), r.str(), Codec.instant(r));
    }

    private static Optional<RepairTask> queued(RocksCatalogStore.Reads r, int vaultId, long fileId) {
        byte[] v = r.get(Table.REPAIRS, key(vaultId, fileId));
        return v == null ? Optional.empty() : Optional.of(task(new Wire.Reader(v)));
    }

    private static void put(Entry e, RepairTask t) {
        Wire.Writer w = new Wire.Writer();
        task(w, t);
        e.txn().put(Table.REPAIRS, key(t.vaultId(), t.fileId()), w.toByteArray());
    }

    /** Queues shards of a file of a registered vault; {@code INVALID_ARGUMENT} for a shard out of its layout. */
    static RepairTask enqueue(Entry e, int vaultId, long fileId, List<Integer> shards, String reason)
            throws CatalogException {
        if (shards.isEmpty()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "a repair names at least one shard");
        }
        if (!REASON.matcher(reason).matches()) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "bad repair reason '" + reason + "'");
        }
        VaultInfo vault = ClusterMap.vaultWithPods(e.txn(), vaultId);
        if (vault == null) {
            throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "no vault " + vaultId);
        }
        int width = vault.layout().dataShards() + vault.layout().parityShards();
        TreeSet<Integer> all = new TreeSet<>();
        for (int s : shards) {
            if (s < 0 || s >= width) {
                throw new CatalogException(ErrorCode.INVALID_ARGUMENT, "shard " + s + " out of vault " + vaultId);
            }
            all.add(s);
        }
        return merge(e, vaultId, fileId, all, reason);
    }

    /**
     * Queues the shards a file missed at its write, in the batch of the commit that first refers to it
     * ({@link FileLifetimes#addReference}), with reason {@value #WRITE_MISSED}: no round trip, no caller
     * to forget it. Never refuses (the commit must not fail for it): shards outside the file's own layout
     * are left out, and the vault need not be registered.
     */
    static void enqueueMissedAtWrite(Entry e, FileRef f) {
        int width = f.layout().dataShards() + f.layout().parityShards();
        TreeSet<Integer> all = new TreeSet<>();
        for (int s : f.missingShards()) {
            if (s >= 0 && s < width) {
                all.add(s);
            }
        }
        if (!all.isEmpty()) {
            merge(e, f.vaultId(), f.fileId(), all, WRITE_MISSED);
        }
    }

    /** Adds {@code shards} to the file's row (created with {@code reason} and the entry's time if absent). */
    private static RepairTask merge(Entry e, int vaultId, long fileId, TreeSet<Integer> shards, String reason) {
        Optional<RepairTask> old = queued(e.txn(), vaultId, fileId);
        old.ifPresent(t -> shards.addAll(t.shards()));
        RepairTask t = new RepairTask(vaultId, fileId, List.copyOf(shards), old.map(RepairTask::reason).orElse(reason),
                old.map(RepairTask::enqueuedAt).orElse(e.time()));
        put(e, t);
        return t;
    }

    /** Takes repaired shards off a file's row; what is left of it, or empty once it is gone (or was never queued). */
    static Optional<RepairTask> remove(Entry e, int vaultId, long fileId, List<Integer> repaired) {
        Optional<RepairTask> old = queued(e.txn(), vaultId, fileId);
        if (old.isEmpty()) {
            return old;
        }
        List<Integer> left = new ArrayList<>(old.get().shards());
        left.removeAll(repaired);
        if (left.isEmpty() || repaired.isEmpty()) {
            e.txn().delete(Table.REPAIRS, key(vaultId, fileId));
            return Optional.empty();
        }
        RepairTask t = new RepairTask(vaultId, fileId, left, old.get().reason(), old.get().enqueuedAt());
        put(e, t);
        return Optional.of(t);
    }

    /** Queued files from {@code (vaultId, fileId)} on, in that order, at most {@code limit}. */
    static List<RepairTask> list(RocksCatalogStore.Reads r, int vaultId, long fileId, int limit) {
        List<RepairTask> out = new ArrayList<>();
        try (RocksIterator it = r.iterator(Table.REPAIRS)) {
            for (it.seek(key(vaultId, fileId)); it.isValid() && out.size() < limit; it.next()) {
                out.add(task(new Wire.Reader(it.value())));
            }
        }
        return out;
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** REPAIR_ENQUEUE: {@code i32 vaultId | i64 fileId | list of u8 shard | str reason} → RepairTask (as queued now). */
    static Call<RepairTask> enqueue(int vaultId, long fileId, List<Integer> shards, String reason) {
        Objects.requireNonNull(reason, "reason");
        List<Integer> s = List.copyOf(shards);
        for (int i : s) {
            if (i < 0 || i > 255) {
                throw new IllegalArgumentException("shard index out of range: " + i);
            }
        }
        return new Call<>(Op.REPAIR_ENQUEUE, w -> {
            w.i32(vaultId).i64(fileId);
            Codec.list(w, s, Wire.Writer::u8);
            w.str(reason);
        }, RepairQueue::task);
    }

    static void applyEnqueue(Entry e, Wire.Reader in, Wire.Writer out) throws CatalogException {
        task(out, enqueue(e, in.i32(), in.i64(), Codec.list(in, Wire.Reader::u8), in.str()));
    }

    /** REPAIR_REMOVE: {@code i32 vaultId | i64 fileId | list of u8 shard} → {@code bool present [| RepairTask]}. */
    static Call<Optional<RepairTask>> remove(int vaultId, long fileId, List<Integer> repaired) {
        List<Integer> s = List.copyOf(repaired);
        return new Call<>(Op.REPAIR_REMOVE, w -> {
            w.i32(vaultId).i64(fileId);
            Codec.list(w, s, Wire.Writer::u8);
        }, r -> r.bool() ? Optional.of(task(r)) : Optional.empty());
    }

    static void applyRemove(Entry e, Wire.Reader in, Wire.Writer out) {
        Optional<RepairTask> left = remove(e, in.i32(), in.i64(), Codec.list(in, Wire.Reader::u8));
        out.bool(left.isPresent());
        left.ifPresent(t -> task(out, t));
    }

    /** LIST_REPAIRS: {@code i32 fromVaultId | i64 fromFileId | i32 limit} → list of RepairTask. */
    static Call<List<RepairTask>> list(int fromVaultId, long fromFileId, int limit) {
        if (limit < 1 || limit > MAX_LIST) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIST + "]: " + limit);
        }
        return new Call<>(Op.LIST_REPAIRS, w -> w.i32(fromVaultId).i64(fromFileId).i32(limit),
                r -> Codec.list(r, RepairQueue::task));
    }

    static void answerList(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, list(r, in.i32(), in.i64(), Math.min(in.i32(), MAX_LIST)), RepairQueue::task);
    }
}
