package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.FileState;
import java.util.ArrayList;
import java.util.List;

/**
 * The fences of the orphan collector (issue #20, section 5), kept in {@link Table#FENCES}, one row per file:
 *
 * <pre>
 *  key   := u32 vaultId | u64 fileId
 *  value := u8 fate: 1 RELEASED (its last reference went; it waits in DELETIONS for the file reaper)
 *                    2 COLLECTED (the collector fenced it: no commit may refer to it any more)
 * </pre>
 *
 * {@code COLLECT_FILES} records a file COLLECTED only if nothing refers to it (no row in
 * {@link Table#FILES}: no version, part or upload) and the reaper does not own it (not RELEASED); every
 * reference a commit adds goes through {@link FileLifetimes#addReference}, which calls
 * {@link #refuseIfCollected} and so refuses a collected file with {@code CONFLICT}, a definite refusal.
 * The Raft log orders the fence and the commit: whichever applies second loses, so no applied version or
 * part ever points at a file whose shards the collector may delete. Collected rows are kept for good
 * (one small row per orphan): dropping one would let a commit delayed past the drop refer to deleted
 * shards, and only a clock could say that no such commit is left. docs/OPERATIONS.md has the argument.
 *
 * <p>Deterministic and stateless, as every catalog subject.
 */
final class OrphanFences {
    private static final int RELEASED = 1;
    private static final int COLLECTED = 2;
    /** The most files one COLLECT_FILES or FILE_STATES names. */
    static final int MAX_BATCH = 10_000;

    private OrphanFences() {
    }

    private static int fate(RocksCatalogStore.Reads r, int vaultId, long fileId) {
        byte[] v = r.get(Table.FENCES, Keys.fileKey(vaultId, fileId));
        return v == null ? 0 : v[0];
    }

    /** Refuses a reference to a collected file: called for every reference a commit adds. */
    static void refuseIfCollected(Entry e, FileRef f) throws CatalogException {
        if (fate(e.txn(), f.vaultId(), f.fileId()) == COLLECTED) {
            throw new CatalogException(ErrorCode.CONFLICT, "file " + f.vaultId() + "/" + f.fileId()
                    + " was collected as an orphan before this commit; nothing was stored, write the data again");
        }
    }

    /** Marks a file whose last reference went as the reaper's (it is queued in DELETIONS). */
    static void markReleased(Entry e, FileRef f) {
        e.txn().put(Table.FENCES, Keys.fileKey(f.vaultId(), f.fileId()), new byte[] {RELEASED});
    }

    /** The reaper is done with a file: it is no longer RELEASED (a COLLECTED row is never cleared). */
    static void clearReleased(Entry e, FileRef f) {
        if (fate(e.txn(), f.vaultId(), f.fileId()) == RELEASED) {
            e.txn().delete(Table.FENCES, Keys.fileKey(f.vaultId(), f.fileId()));
        }
    }

    static FileState state(RocksCatalogStore.Reads r, int vaultId, long fileId) {
        if (r.get(Table.FILES, Keys.fileKey(vaultId, fileId)) != null) {
            return FileState.LIVE;
        }
        return switch (fate(r, vaultId, fileId)) {
            case RELEASED -> FileState.RELEASED;
            case COLLECTED -> FileState.COLLECTED;
            default -> FileState.ABSENT;
        };
    }

    /** Fences each file that is ABSENT or already COLLECTED; returns those (now COLLECTED), in the order given. */
    static List<FileKey> collect(Entry e, List<FileKey> files) {
        List<FileKey> fenced = new ArrayList<>();
        for (FileKey f : files) {
            FileState s = state(e.txn(), f.vaultId(), f.fileId());
            if (s == FileState.ABSENT || s == FileState.COLLECTED) {
                e.txn().put(Table.FENCES, Keys.fileKey(f.vaultId(), f.fileId()), new byte[] {COLLECTED});
                fenced.add(f);
            }
        }
        return fenced;
    }

    // ---- encodings ----

    static void fileKey(Wire.Writer w, FileKey f) {
        w.i32(f.vaultId()).i64(f.fileId());
    }

    static FileKey fileKey(Wire.Reader r) {
        return new FileKey(r.i32(), r.i64());
    }

    private static List<FileKey> batch(List<FileKey> files) {
        List<FileKey> copy = List.copyOf(files);
        if (copy.isEmpty() || copy.size() > MAX_BATCH) {
            throw new IllegalArgumentException("a batch names 1.." + MAX_BATCH + " files: " + copy.size());
        }
        return copy;
    }

    // ---- commands: each client call (its fields and reply) beside the peer's handler ----

    /** COLLECT_FILES: {@code list of (i32 vaultId | i64 fileId)} → list of the files fenced (COLLECTED now). */
    static Call<List<FileKey>> collect(List<FileKey> files) {
        List<FileKey> b = batch(files);
        return new Call<>(Op.COLLECT_FILES, w -> Codec.list(w, b, OrphanFences::fileKey),
                r -> Codec.list(r, OrphanFences::fileKey));
    }

    static void applyCollect(Entry e, Wire.Reader in, Wire.Writer out) {
        Codec.list(out, collect(e, Codec.list(in, OrphanFences::fileKey)), OrphanFences::fileKey);
    }

    /** FILE_STATES: {@code list of (i32 vaultId | i64 fileId)} → list of u8 {@link FileState}, in the order asked. */
    static Call<List<FileState>> states(List<FileKey> files) {
        List<FileKey> b = batch(files);
        return new Call<>(Op.FILE_STATES, w -> Codec.list(w, b, OrphanFences::fileKey),
                r -> Codec.list(r, x -> FileState.fromWire(x.u8())));
    }

    static void answerStates(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        List<FileKey> files = Codec.list(in, OrphanFences::fileKey);
        Codec.list(out, files, (w, f) -> w.u8(state(r, f.vaultId(), f.fileId()).wire()));
    }
}
