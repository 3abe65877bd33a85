package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.DiskFull;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.api.AgedShard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Shard files on a pod's tomes: where each shard lives, and the write, read, delete, check and
 * restore operations on it. Knows nothing of flushing or purging; {@link PodNode} composes those.
 *
 * <p>Layout: {@code <tome>/v<vaultId>/s<shardIndex>/<xx>/<fileId as 16 hex digits>.shard}, where
 * {@code xx} is bits 12-19 of the file id in hex: no directory holds more than 1/256 of a slot,
 * and runs of 4,096 consecutive file ids (ids are handed out in order) share a directory, so one
 * flush batch of new files needs few directory syncs. A shard's tome is a fixed hash of its id over the tome list, so lookups need no index
 * (and the tome list must not be reordered).
 *
 * <p>Reads go through {@link OpenShardFiles}: the files of recently read or written shards stay open with
 * their parsed layout, and every change of a file replaces or drops its entry under the shard's lock.
 *
 * <p>Thread-safe: changes of one shard are serialised by a striped lock; different shards proceed in
 * parallel, and reads of a cached shard take no lock. Durability is the caller's choice: {@link #write}
 * syncs only when asked. {@link #close} closes the cached files; the store still works after it, uncached.
 */
public final class ShardStore implements AutoCloseable {
    static final String SUFFIX = ".shard";
    private static final String TMP_SUFFIX = ".shard.tmp";
    private static final int LOCK_STRIPES = 1024;
    private static final int FANOUT_SHIFT = 12;
    private static final HexFormat HEX = HexFormat.of();

    private final List<Tome> tomes;
    private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
    private final Set<Path> knownDirectories = ConcurrentHashMap.newKeySet();
    private final OpenShardFiles openFiles;

    /** What a write did. */
    public record WriteOutcome(Tome tome, boolean newFile, boolean duplicate, long bytesWritten) {
    }

    /** The state of one chunk on disk, as recovery sees it. */
    public enum ChunkState { PRESENT, MISSING, CORRUPT }

    /** A store keeping no file open between reads (tools and tests that only need the layout). */
    public ShardStore(List<Tome> tomes) {
        this(tomes, 0);
    }

    /** @param openFiles how many shard files to keep open for reads ({@link OpenShardFiles}); 0 keeps none */
    public ShardStore(List<Tome> tomes, int openFiles) {
        this.openFiles = new OpenShardFiles(openFiles);
        if (tomes.isEmpty()) {
            throw new IllegalArgumentException("a pod needs at least one tome");
        }
        this.tomes = List.copyOf(tomes);
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    public List<Tome> tomes() {
        return tomes;
    }

    public Tome tomeFor(ShardId id) {
        long h = id.fileId() * 0x9E3779B97F4A7C15L ^ ((long) id.vaultId() << 8 | id.shardIndex());
        h ^= h >>> 29;
        return tomes.get((int) Math.floorMod(h, (long) tomes.size()));
    }

    /** Where a shard's file is; the one place its name is built (the writer, the flusher and recovery all ask here). */
    public Path pathOf(ShardId id) {
        return tomeFor(id).directory().resolve(relativePath(id, SUFFIX));
    }

    /**
     * {@code v<vault>/s<shard>/<xx>/<fileId as 16 hex digits><suffix>}, built by hand: a
     * {@code String.format} per path was measurable CPU on every write and every flush (issue #18).
     */
    static String relativePath(ShardId id, String suffix) {
        return new StringBuilder(48).append('v').append(id.vaultId()).append("/s").append(id.shardIndex())
                .append('/').append(HEX.toHexDigits((byte) (id.fileId() >>> FANOUT_SHIFT)))
                .append('/').append(HEX.toHexDigits(id.fileId())).append(suffix).toString();
    }

    ReentrantLock lockFor(ShardId id) {
        return locks[Math.floorMod(id.hashCode(), LOCK_STRIPES)];
    }

    /**
     * Stores a chunk at its offset in the shard's file, after checking its CRC.
     *
     * @param durable fsync the file, and its directory entry if the file is new, before returning
     * @throws ShardStoreException CHECKSUM_MISMATCH if {@code crc32c} does not match the data,
     *     BAD_REQUEST if it overlaps a different chunk, UNAVAILABLE if the shard's tome has failed, NO_SPACE if
     *     its file system is full
     */
    public WriteOutcome write(ShardId id, long offsetInShard, int crc32c, ByteBuf data, boolean durable)
            throws IOException {
        // One nioBuffers call serves the CRC check and the gathering write (on a composite buffer
        // each call allocates its array).
        ByteBuffer[] parts = data.nioBuffers(data.readerIndex(), data.readableBytes());
        int actual = Crc32c.of(parts);
        if (actual != crc32c) {
            throw new ShardStoreException(ErrorCode.CHECKSUM_MISMATCH, "chunk at " + offsetInShard + " of shard " + id
                    + " has CRC " + Crc32c.format(actual) + ", the request says " + Crc32c.format(crc32c));
        }
        if (offsetInShard < 0) {
            throw new ShardStoreException(ErrorCode.BAD_REQUEST, "offsetInShard must be >= 0: " + offsetInShard);
        }
        Tome tome = tomeFor(id);
        if (tome.failed()) {
            throw new ShardStoreException(ErrorCode.UNAVAILABLE, tome + " has failed and takes no writes: "
                    + tome.failure());
        }
        Path path = pathOf(id);
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try {
            return writeLocked(tome, id, path, offsetInShard, crc32c, data, parts, durable);
        } catch (ShardStoreException e) {
            throw e;
        } catch (IOException e) {
            if (DiskFull.says(e.getMessage())) {
                throw new ShardStoreException(ErrorCode.NO_SPACE, tome + " is full: a write of shard " + id
                        + " at " + offsetInShard + " failed (" + e.getMessage() + ")");
            }
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #write} under the shard's lock. */
    private WriteOutcome writeLocked(Tome tome, ShardId id, Path path, long offsetInShard, int crc32c, ByteBuf data,
                                     ByteBuffer[] parts, boolean durable) throws IOException {
        ensureDirectories(tome, path.getParent());
        int length = data.readableBytes();
        boolean newFile;
        TomeFile file;
        try {
            file = tome.io().open(path, TomeIo.OpenMode.CREATE_NEW);
            newFile = true;
        } catch (FileAlreadyExistsException e) {
            file = tome.io().open(path, TomeIo.OpenMode.WRITE);
            newFile = false;
        }
        boolean duplicate = false;
        long written;
        ShardFile.Layout after;
        try {
            if (newFile) {
                written = create(tome, file, path, id, offsetInShard, crc32c, parts);
                after = ShardFile.Layout.empty(id).withAppended(offsetInShard, length, crc32c);
            } else {
                ShardFile.Layout layout = ShardFile.scan(file, path);
                duplicate = ShardFile.checkNewChunk(layout, offsetInShard, length, crc32c);
                written = duplicate ? 0 : ShardFile.append(file, layout, offsetInShard, crc32c, parts);
                after = duplicate ? layout : layout.withAppended(offsetInShard, length, crc32c);
            }
            if (durable) {
                file.sync(written);
                if (newFile) {
                    tome.io().syncDirectory(path.getParent());
                }
            }
        } catch (IOException | RuntimeException e) {
            // The file may have changed in part (a torn append, a truncated tail): no reader may keep its old layout.
            openFiles.invalidate(id);
            closeAfterFailure(file, e);
            throw e;
        }
        // The file stays open for the next read of the shard, which neither opens nor scans it.
        openFiles.put(id, file, path, after, !tome.failed()).release();
        return new WriteOutcome(tome, newFile, duplicate, written);
    }

    private static void closeAfterFailure(TomeFile file, Exception failure) {
        try {
            file.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * {@link ShardFile#create}, deleting the new file when it fails: on a full disk the file is created but its
     * header is not written, and a file shorter than its header reads as a damaged one, which would refuse every
     * later write of the shard (a repair's too) once there is room again. It holds nothing anyone was told is
     * stored.
     */
    private static long create(Tome tome, TomeFile file, Path path, ShardId id, long offsetInShard, int crc32c,
                               ByteBuffer[] parts) throws IOException {
        try {
            return ShardFile.create(file, id, offsetInShard, crc32c, parts);
        } catch (IOException e) {
            try {
                tome.io().deleteIfExists(path);
            } catch (IOException deleteFailed) {
                e.addSuppressed(deleteFailed);
            }
            throw e;
        }
    }

    /**
     * Reads a byte range of a shard, verifying the CRC of every chunk it touches.
     *
     * @throws ShardStoreException NOT_FOUND, BAD_REQUEST (range), CORRUPT (CRC mismatch)
     */
    public ByteBuf read(ShardId id, long offset, int length, ByteBufAllocator alloc) throws IOException {
        OpenShardFiles.Handle h = openForRead(id);
        try {
            return ShardFile.readRange(h.file(), h.layout(), h.path(), offset, length, alloc);
        } finally {
            h.release();
        }
    }

    /**
     * {@link #read}, if it needs no wait for the disk: the shard's file is open in the cache (so no open or scan)
     * and every byte it reads is in the page cache. Else null, and the caller reads the ordinary way, which also
     * reports the errors: this one answers only what it can answer at once.
     */
    public ByteBuf readIfCached(ShardId id, long offset, int length, ByteBufAllocator alloc) throws IOException {
        if (tomeFor(id).failed()) {
            return null;
        }
        OpenShardFiles.Handle h = openFiles.acquire(id);
        if (h == null) {
            return null;
        }
        try {
            return ShardFile.readRangeIfCached(h.file(), h.layout(), h.path(), offset, length, alloc);
        } finally {
            h.release();
        }
    }

    /**
     * The shard's open file and layout, from the cache or opened, scanned and cached now; the caller
     * releases it. A failed tome's shards are not cached: its files are read as they are now, every time.
     */
    private OpenShardFiles.Handle openForRead(ShardId id) throws IOException {
        Tome tome = tomeFor(id);
        boolean healthy = !tome.failed();
        if (healthy) {
            OpenShardFiles.Handle cached = openFiles.acquire(id);
            if (cached != null) {
                return cached;
            }
        }
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try {
            // Under the lock no writer changes the file between its scan and its caching.
            OpenShardFiles.Handle cached = healthy ? openFiles.acquire(id) : null;
            if (cached != null) {
                return cached;
            }
            Path path = pathOf(id);
            TomeFile f = openExisting(tome, path, TomeIo.OpenMode.READ, id);
            ShardFile.Layout layout;
            try {
                layout = ShardFile.scan(f, path);
            } catch (IOException | RuntimeException e) {
                closeAfterFailure(f, e);
                throw e;
            }
            return openFiles.put(id, f, path, layout, healthy);
        } finally {
            lock.unlock();
        }
    }

    /** The shard's logical length, or empty if it is not stored. */
    public Optional<Long> length(ShardId id) throws IOException {
        Tome tome = tomeFor(id);
        Path path = pathOf(id);
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try (TomeFile f = tome.io().open(path, TomeIo.OpenMode.READ)) {
            return Optional.of(ShardFile.scan(f, path).shardLength());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Deletes a shard; true if it existed. Idempotent. The deletion is not synced. */
    public boolean delete(ShardId id) throws IOException {
        Tome tome = tomeFor(id);
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try {
            openFiles.invalidate(id);
            return tome.io().deleteIfExists(pathOf(id));
        } finally {
            lock.unlock();
        }
    }

    /** Makes a shard's file durable (and its directory entry when {@code directoryToo}); false if it is gone. */
    public boolean sync(ShardId id, long bytesHint, boolean directoryToo) throws IOException {
        Tome tome = tomeFor(id);
        Path path = pathOf(id);
        try (TomeFile f = tome.io().open(path, TomeIo.OpenMode.WRITE)) {
            f.sync(bytesHint);
        } catch (NoSuchFileException e) {
            return false;
        }
        if (directoryToo) {
            tome.io().syncDirectory(path.getParent());
        }
        return true;
    }

    /** Whether the chunk at {@code offsetInShard} is stored with this length and CRC, and its data matches. */
    public ChunkState check(ShardId id, long offsetInShard, int length, int crc32c) throws IOException {
        Tome tome = tomeFor(id);
        Path path = pathOf(id);
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try (TomeFile f = tome.io().open(path, TomeIo.OpenMode.READ)) {
            ShardFile.Layout layout;
            try {
                layout = ShardFile.scan(f, path);
            } catch (ShardStoreException e) {
                return ChunkState.CORRUPT;
            }
            Optional<ShardFile.Chunk> chunk = layout.chunkAt(offsetInShard);
            if (chunk.isEmpty()) {
                return ChunkState.MISSING;
            }
            ShardFile.Chunk c = chunk.get();
            if (c.length() != length || c.crc32c() != crc32c || !ShardFile.verify(f, c)) {
                return ChunkState.CORRUPT;
            }
            return ChunkState.PRESENT;
        } catch (NoSuchFileException e) {
            return ChunkState.MISSING;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Rewrites a shard's file with this chunk and every other chunk of the old file that still
     * verifies, durably: a new file is written and synced, renamed over the old one, and the
     * directory is synced.
     */
    public void restore(ShardId id, long offsetInShard, int crc32c, ByteBuf data) throws IOException {
        int actual = Crc32c.of(data);
        if (actual != crc32c) {
            throw new ShardStoreException(ErrorCode.CHECKSUM_MISMATCH, "restore of " + id + ": data has CRC "
                    + Crc32c.format(actual) + ", expected " + Crc32c.format(crc32c));
        }
        Tome tome = tomeFor(id);
        Path path = pathOf(id);
        Path tmp = tome.directory().resolve(relativePath(id, TMP_SUFFIX));
        long end = offsetInShard + data.readableBytes();
        ReentrantLock lock = lockFor(id);
        lock.lock();
        try {
            ensureDirectories(tome, path.getParent());
            tome.io().deleteIfExists(tmp);
            try (TomeFile out = tome.io().open(tmp, TomeIo.OpenMode.CREATE_NEW)) {
                long position = ShardFile.create(out, id, offsetInShard, crc32c,
                        data.nioBuffers(data.readerIndex(), data.readableBytes()));
                for (ShardFile.Chunk kept : keptChunks(tome, path, offsetInShard, end)) {
                    ShardFile.Layout written = new ShardFile.Layout(id, List.of(), position, position);
                    position += ShardFile.append(out, written, kept.offsetInShard(), kept.crc32c(),
                            new ByteBuffer[] {readChunk(tome, path, kept)});
                }
                out.sync(position);
            }
            // Before the rename: a failed one may have replaced the file all the same.
            openFiles.invalidate(id);
            tome.io().replace(tmp, path);
            tome.io().syncDirectory(path.getParent());
        } finally {
            lock.unlock();
        }
    }

    private List<ShardFile.Chunk> keptChunks(Tome tome, Path path, long start, long end) throws IOException {
        List<ShardFile.Chunk> kept = new ArrayList<>();
        try (TomeFile f = tome.io().open(path, TomeIo.OpenMode.READ)) {
            for (ShardFile.Chunk c : ShardFile.scan(f, path).chunks()) {
                boolean overlaps = c.offsetInShard() < end && start < c.end();
                if (!overlaps && ShardFile.verify(f, c)) {
                    kept.add(c);
                }
            }
        } catch (NoSuchFileException | ShardStoreException e) {
            return List.of();
        }
        return kept;
    }

    private static ByteBuffer readChunk(Tome tome, Path path, ShardFile.Chunk c) throws IOException {
        try (TomeFile f = tome.io().open(path, TomeIo.OpenMode.READ)) {
            ByteBuffer data = ByteBuffer.allocate(c.length());
            f.read(data, c.dataPosition());
            data.flip();
            return data;
        }
    }

    /** Shard files kept open for reads now. */
    int openFiles() {
        return openFiles.size();
    }

    /** Closes the files kept open for reads (each once no reader holds it); from now on none is kept. */
    @Override
    public void close() {
        openFiles.close();
    }

    /** Opens a shard's file for a scrub ({@link ScrubCursor}); empty when it is not stored. */
    Optional<ScrubCursor> openScrub(ShardId id) throws IOException {
        return ScrubCursor.open(id, lockFor(id), tomeFor(id), pathOf(id));
    }

    /**
     * Up to {@code limit} shard ids on this pod after {@code after}, in key order
     * ({@link ShardId#KEY_ORDER}). Walks the directories; memory is bounded by {@code limit}.
     */
    public List<ShardId> list(Optional<ShardId> after, int limit) throws IOException {
        return new ArrayList<>(listPaths(after, limit).keySet());
    }

    /**
     * As {@link #list}, with each shard file's age: {@code nowMillis} less its last modification time, never
     * negative. {@code nowMillis} must come from the wall clock the file system stamps files with. A shard
     * deleted between the walk and its stat is left out.
     */
    public List<AgedShard> listAged(Optional<ShardId> after, int limit, long nowMillis) throws IOException {
        List<AgedShard> out = new ArrayList<>();
        for (Map.Entry<ShardId, Path> e : listPaths(after, limit).entrySet()) {
            try {
                long modified = tomeFor(e.getKey()).io().lastModifiedMillis(e.getValue());
                out.add(new AgedShard(e.getKey(), Math.max(0, nowMillis - modified)));
            } catch (NoSuchFileException gone) {
                // Deleted meanwhile: nothing to report.
            }
        }
        return out;
    }

    private TreeMap<ShardId, Path> listPaths(Optional<ShardId> after, int limit) throws IOException {
        TreeMap<ShardId, Path> best = new TreeMap<>(ShardId.KEY_ORDER);
        for (Tome tome : tomes) {
            TomeIo io = tome.io();
            for (Path vaultDir : io.list(tome.directory())) {
                int vault = parseNumber(vaultDir, "v");
                if (vault < 0 || after.isPresent() && vault < after.get().vaultId()) {
                    continue;
                }
                for (Path slotDir : io.list(vaultDir)) {
                    int shard = parseNumber(slotDir, "s");
                    if (shard < 0 || shard > ShardId.MAX_SHARD_INDEX) {
                        continue;
                    }
                    if (after.isPresent() && vault == after.get().vaultId() && shard < after.get().shardIndex()) {
                        continue;
                    }
                    for (Path fanout : io.list(slotDir)) {
                        for (Path file : io.list(fanout)) {
                            String name = file.getFileName().toString();
                            if (!name.endsWith(SUFFIX) || name.length() != 16 + SUFFIX.length()) {
                                continue;
                            }
                            long fileId;
                            try {
                                fileId = Long.parseUnsignedLong(name.substring(0, 16), 16);
                            } catch (NumberFormatException e) {
                                continue;
                            }
                            if (fileId < 0) {
                                continue;
                            }
                            ShardId id = new ShardId(vault, fileId, shard);
                            if (after.isPresent() && ShardId.KEY_ORDER.compare(id, after.get()) <= 0) {
                                continue;
                            }
                            best.put(id, file);
                            if (best.size() > limit) {
                                best.pollLastEntry();
                            }
                        }
                    }
                }
            }
        }
        return best;
    }

    private static int parseNumber(Path dir, String prefix) {
        String name = dir.getFileName().toString();
        if (!name.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static TomeFile openExisting(Tome tome, Path path, TomeIo.OpenMode mode, ShardId id) throws IOException {
        try {
            return tome.io().open(path, mode);
        } catch (NoSuchFileException e) {
            throw new ShardStoreException(ErrorCode.NOT_FOUND, "shard " + id + " is not on this pod");
        }
    }

    /** Creates missing directories down to {@code dir}, syncing each new one's parent so its entry survives a crash. */
    private void ensureDirectories(Tome tome, Path dir) throws IOException {
        if (knownDirectories.contains(dir)) {
            return;
        }
        Path root = tome.directory();
        List<Path> chain = new ArrayList<>();
        for (Path p = dir; p != null && !p.equals(root); p = p.getParent()) {
            chain.add(0, p);
        }
        for (Path p : chain) {
            if (tome.io().createDirectory(p)) {
                tome.io().syncDirectory(p.getParent());
            }
        }
        knownDirectories.add(dir);
    }
}
