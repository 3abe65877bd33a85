package io.shardvault.coordinator.catalog.internal;

import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocksdb.RocksIterator;

/**
 * File lifetimes: each file's reference count in {@link Table#FILES} (a version part, a multipart part),
 * and the queue of files whose count reached zero in {@link Table#DELETIONS}, polled and acknowledged by
 * the coordinators that delete their shards. A file's first reference also queues the shards it missed
 * at its write for repair ({@link RepairQueue#enqueueMissedAtWrite}), in the same batch.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class FileLifetimes {
    private static final byte[] NEXT_DELETION = Keys.utf8("nextDeletion");

    private FileLifetimes() {
    }

    /**
     * Adds a reference to {@code f}: the one place a commit makes a file live, so the one place that refuses a
     * file the orphan collector fenced ({@link OrphanFences#refuseIfCollected}, {@code CONFLICT}).
     */
    static void addReference(Entry e, FileRef f) throws CatalogException {
        OrphanFences.refuseIfCollected(e, f);
        byte[] key = Keys.fileKey(f.vaultId(), f.fileId());
        byte[] old = e.txn().get(Table.FILES, key);
        int refs = old == null ? 0 : new Wire.Reader(old).i32();
        if (refs == 0) {
            Counters.addToCounter(e, Counters.USED_BYTES, f.size());
            Counters.addToCounter(e, Counters.LIVE_FILES, 1);
            // Only at the first reference: a later one (a copy, a completed part) carries the shards as
            // written, some of which may have been repaired since.
            RepairQueue.enqueueMissedAtWrite(e, f);
        }
        Wire.Writer w = new Wire.Writer().i32(refs + 1);
        Codec.fileRef(w, f);
        e.txn().put(Table.FILES, key, w.toByteArray());
    }

    static void release(Entry e, FileRef f, List<FileRef> released) {
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
        Counters.addToCounter(e, Counters.USED_BYTES, -stored.size());
        Counters.addToCounter(e, Counters.LIVE_FILES, -1);
        long id = Counters.nextCounter(e, NEXT_DELETION, 1, 1);
        Wire.Writer w = new Wire.Writer();
        Codec.fileRef(w, stored);
        e.txn().put(Table.DELETIONS, Wire.u64(id), w.toByteArray());
        OrphanFences.markReleased(e, stored);
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
            byte[] queued = e.txn().get(Table.DELETIONS, Wire.u64(id));
            if (queued != null) {
                OrphanFences.clearReleased(e, Codec.fileRef(new Wire.Reader(queued)));
            }
            e.txn().delete(Table.DELETIONS, Wire.u64(id));
        }
    }

    // ---- encodings: its records, as stored and as replied ----

    static void fileDeletion(Wire.Writer w, FileDeletion d) {
        w.i64(d.id());
        Codec.fileRef(w, d.file());
    }

    static FileDeletion fileDeletion(Wire.Reader r) {
        return new FileDeletion(r.i64(), Codec.fileRef(r));
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** PENDING_DELETIONS: {@code i32 limit} → list of FileDeletion, oldest first. */
    static Call<List<FileDeletion>> pendingDeletions(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        return new Call<>(Op.PENDING_DELETIONS, w -> w.i32(limit), r -> Codec.list(r, FileLifetimes::fileDeletion));
    }

    static void answerPendingDeletions(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, pendingDeletions(r, in.i32()), FileLifetimes::fileDeletion);
    }

    /** GET_FILE: {@code i32 vaultId | i64 fileId} → {@code bool live [| FileRef as first referenced]}. */
    static Call<Optional<FileRef>> file(int vaultId, long fileId) {
        return new Call<>(Op.GET_FILE, w -> w.i32(vaultId).i64(fileId),
                r -> r.bool() ? Optional.of(Codec.fileRef(r)) : Optional.empty());
    }

    static void answerFile(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        byte[] row = r.get(Table.FILES, Keys.fileKey(in.i32(), in.i64()));
        out.bool(row != null);
        if (row != null) {
            Wire.Reader stored = new Wire.Reader(row);
            stored.i32();
            Codec.fileRef(out, Codec.fileRef(stored));
        }
    }

    /** ACK_DELETIONS: {@code list of i64 deletion id} → nothing. */
    static Call<Void> ackDeletions(List<Long> deletionIds) {
        return Call.of(Op.ACK_DELETIONS, w -> Codec.list(w, deletionIds, Wire.Writer::i64));
    }

    static void applyAckDeletions(Entry e, Wire.Reader in, Wire.Writer out) {
        ackDeletions(e, Codec.list(in, Wire.Reader::i64));
    }

    /** The most files one LIST_FILES answers. */
    static final int MAX_LIST_FILES = 10_000;

    /** Live files of a vault after {@code afterFileId} (-1: from the first), in file id order, at most {@code limit}. */
    static List<FileRef> listFiles(RocksCatalogStore.Reads r, int vaultId, long afterFileId, int limit) {
        List<FileRef> out = new ArrayList<>();
        if (afterFileId == Long.MAX_VALUE) {
            return out;
        }
        byte[] vault = new Wire.Writer(4).i32(vaultId).toByteArray();
        try (RocksIterator it = r.iterator(Table.FILES)) {
            for (it.seek(Keys.fileKey(vaultId, afterFileId + 1)); it.isValid() && out.size() < limit
                    && Keys.startsWith(it.key(), vault); it.next()) {
                Wire.Reader stored = new Wire.Reader(it.value());
                stored.i32();
                out.add(Codec.fileRef(stored));
            }
        }
        return out;
    }

    /** LIST_FILES: {@code i32 vaultId | i64 afterFileId | i32 limit} → list of FileRef (as first referenced). */
    static Call<List<FileRef>> listFiles(int vaultId, long afterFileId, int limit) {
        if (limit < 1 || limit > MAX_LIST_FILES) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIST_FILES + "]: " + limit);
        }
        if (afterFileId < -1) {
            throw new IllegalArgumentException("afterFileId must be >= -1: " + afterFileId);
        }
        return new Call<>(Op.LIST_FILES, w -> w.i32(vaultId).i64(afterFileId).i32(limit),
                r -> Codec.list(r, Codec::fileRef));
    }

    static void answerListFiles(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        int vaultId = in.i32();
        long after = Math.max(-1, in.i64());
        Codec.list(out, listFiles(r, vaultId, after, Math.max(1, Math.min(in.i32(), MAX_LIST_FILES))), Codec::fileRef);
    }
}
