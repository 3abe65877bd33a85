package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.pod.api.ScrubFinding;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard file being scrubbed, a chunk at a time: the {@link ShardFile} scan of its header and
 * records when it was opened, and each chunk's data checked against its CRC32C by
 * {@link ShardFile#verify}, so the scrubber has no parser of its own. Every read holds the shard's
 * lock, for one chunk at a time; between chunks writers proceed (an append lands after the scanned
 * records, a restore or delete replaces the name while this open file keeps the old content, which
 * is why a verdict is confirmed on a fresh cursor before it is reported: {@link #confirms}).
 *
 * <p>What it reports: {@link ScrubFinding.Kind#CORRUPT} for a bad header or a chunk whose data fails
 * its CRC (a read error counts as such: it is the bad sector a scrub is for); {@link ScrubFinding.Kind#MISSING} for a file that ends inside a record (cut short) or whose
 * chunks leave a gap. A file cut exactly at a record boundary looks whole here: only the catalog knows
 * the shard's length (a read, or the catalog-vs-pod comparison, finds it).
 *
 * <p>Not thread-safe: one owner, the scrub lane. Close it.
 */
final class ScrubCursor implements AutoCloseable {
    private final ShardId id;
    private final ReentrantLock lock;
    private final TomeFile file;
    /** Null when the header is unreadable. */
    private final ShardFile.Layout layout;
    private final boolean structureMissing;
    private int next;
    private ShardFile.Chunk badChunk;

    private ScrubCursor(ShardId id, ReentrantLock lock, TomeFile file, ShardFile.Layout layout) {
        this.id = id;
        this.lock = lock;
        this.file = file;
        this.layout = layout;
        this.structureMissing = layout != null && (layout.validEnd() < layout.fileSize() || hasGap(layout));
    }

    /** Opens {@code path}'s file and scans it under {@code lock}; empty when the file is gone. */
    static Optional<ScrubCursor> open(ShardId id, ReentrantLock lock, Tome tome, Path path)
            throws IOException {
        lock.lock();
        try {
            TomeFile f;
            try {
                f = tome.io().open(path, TomeIo.OpenMode.READ);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
            ShardFile.Layout layout;
            try {
                layout = ShardFile.scan(f, path);
            } catch (IOException e) {
                // A bad header, or a read error (a bad sector): either way the file cannot be trusted.
                layout = null;
            }
            return Optional.of(new ScrubCursor(id, lock, f, layout));
        } finally {
            lock.unlock();
        }
    }

    private static boolean hasGap(ShardFile.Layout layout) {
        long expected = 0;
        for (ShardFile.Chunk c : layout.chunks()) {
            if (c.offsetInShard() != expected) {
                return true;
            }
            expected = c.end();
        }
        return false;
    }

    ShardId id() {
        return id;
    }

    /** Bytes read to open it: the header and every record header. */
    long scannedBytes() {
        return layout == null ? ShardFile.FILE_HEADER_BYTES
                : ShardFile.FILE_HEADER_BYTES + (long) layout.chunks().size() * ShardFile.RECORD_HEADER_BYTES;
    }

    /**
     * Checks the next chunk against its CRC; returns the bytes read, or -1 when every chunk is
     * checked or one has failed (the file's verdict is then known).
     */
    long verifyNext() {
        if (layout == null || badChunk != null || next >= layout.chunks().size()) {
            return -1;
        }
        ShardFile.Chunk c = layout.chunks().get(next++);
        if (!verify(c)) {
            badChunk = c;
        }
        return c.length();
    }

    /** What is wrong with the file, as far as checked: empty while nothing is. */
    Optional<ScrubFinding.Kind> verdict() {
        if (layout == null || badChunk != null) {
            return Optional.of(ScrubFinding.Kind.CORRUPT);
        }
        return structureMissing ? Optional.of(ScrubFinding.Kind.MISSING) : Optional.empty();
    }

    /**
     * Whether this cursor, opened after {@code earlier} found damage, still sees it: the same bad
     * header, the same chunk failing its CRC (or gone), the same cut or gap. False when the file was
     * rewritten meanwhile (a repair, a restore), so the earlier verdict was about content now gone.
     */
    boolean confirms(ScrubCursor earlier) {
        if (earlier.layout == null) {
            return layout == null;
        }
        if (layout == null) {
            return true;
        }
        if (earlier.badChunk != null) {
            ShardFile.Chunk was = earlier.badChunk;
            Optional<ShardFile.Chunk> now = layout.chunkAt(was.offsetInShard());
            if (now.isEmpty()) {
                return true;
            }
            return !verify(now.get());
        }
        return structureMissing;
    }

    /** Whether the chunk's data matches its CRC; a read error (a bad sector) counts as no. */
    private boolean verify(ShardFile.Chunk c) {
        lock.lock();
        try {
            return ShardFile.verify(file, c);
        } catch (IOException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
