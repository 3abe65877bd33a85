package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.fs.DirectOpenOption;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.StashStoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Status;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ShardStore} of one stash partition: chunk values appended to a {@link ChunkLog}
 * (segment files in {@code chunks/}), and in RocksDB only the index, the meta values in column family
 * {@code meta} keyed by {@link ShardId#encode()}, each saying where its chunk value is
 * ({@link EntryFormat}). The WAL then checksums some 60 bytes per chunk instead of the chunk, and
 * chunk bytes are written to disk once. {@code docs/STASH.md} explains the layout and the options.
 *
 * <p>Durability: a write appends the chunk values to the active segment, then writes the index
 * entries to RocksDB unsynced; {@link #syncWal()} forces the segment, then syncs the WAL, so an
 * acknowledged entry has both its bytes and its index entry on disk. The WAL may reach the disk
 * before the segment does (a crash between the two), so at open every index entry pointing into the
 * newest segment is read back and checked, and dropped (logged) when its bytes are missing or fail
 * their CRC: only never-acknowledged entries can be so. Every sync also records, in the same WAL, how far
 * its force covered the segment ({@link #FORCED_KEY}); an entry below that mark was forced, so bytes there
 * that fail their CRC rotted after the fact: it is kept (reads answer CORRUPT, logged at ERROR), never
 * silently dropped. Entries pointing into a segment whose file is gone (its last purges were synced, its
 * deletion was not yet) are dropped too.
 *
 * <p>Entries written before the chunk log (version 1 metas) keep their chunk value in the default
 * column family, are served from there, and are deleted from both column families when purged.
 *
 * <p>Thread-safe: writes, and compaction's moves, are serialized by one lock; reads run concurrently.
 * A RocksDB error leaves the store usable for reads; after a failed write RocksDB may refuse further
 * writes until reopened. Every RocksDB exception is translated into a {@link ShardStoreException}
 * naming the operation.
 */
public final class RocksShardStore implements ShardStore {
    private static final Logger LOG = LoggerFactory.getLogger(RocksShardStore.class);
    static final String META_CF = "meta";
    /**
     * Obsolete WAL files kept for reuse. A new WAL then overwrites an old file in place, so a
     * sync writes data blocks only; appending to a fresh file would also change its size, and
     * fdatasync then commits an ext4 journal transaction too (docs/STASH.md, measured there).
     */
    static final int RECYCLED_WAL_FILES = 4;

    /**
     * Where a sync records how far its force covered the active segment (segment, length: two i64), in the
     * default column family, whose other keys are 13-byte shard ids of chunk values from before the chunk
     * log and which nothing iterates. Written unsynced right before the WAL sync, so it is on disk only
     * with (or after) the force it describes.
     */
    static final byte[] FORCED_KEY = "chunklog.forced".getBytes(StandardCharsets.US_ASCII);

    /** The chunk log's directory in a partition's directory. */
    static final String CHUNKS_DIR = "chunks";
    /** How often a read retries when the segment it read the index for went away (purged or compacted meanwhile). */
    private static final int READ_ATTEMPTS = 3;
    /** Records compaction copies before one force and one index batch. */
    private static final int COMPACTION_BATCH = 64;

    private final Path dir;
    private final RocksDB db;
    /** The default column family: chunk values of entries written before the chunk log. */
    private final ColumnFamilyHandle legacyChunks;
    private final ColumnFamilyHandle metas;
    private final List<AutoCloseable> resources;
    private final WriteOptions unsyncedWrite;
    private final ChunkLog log;
    /** Serializes writes and compaction's moves: an index entry changes only under it. */
    private final Object writeLock = new Object();

    private RocksShardStore(Path dir, RocksDB db, ColumnFamilyHandle legacyChunks, ColumnFamilyHandle metas,
                            WriteOptions unsyncedWrite, List<AutoCloseable> resources, ChunkLog log) {
        this.dir = dir;
        this.db = db;
        this.legacyChunks = legacyChunks;
        this.metas = metas;
        this.unsyncedWrite = unsyncedWrite;
        this.resources = resources;
        this.log = log;
    }

    /**
     * Opens (or creates) the store in {@code dir}: replays the WAL, checks the index entries of the
     * newest chunk log segment and drops those whose bytes did not survive, and starts a new segment.
     */
    public static RocksShardStore open(Path dir, StashStoreOptions options) throws ShardStoreException {
        RocksNative.ensureAvailable();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new ShardStoreException("open " + dir, "cannot create the directory: " + e, e);
        }
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            Cache cache = track(resources, new LRUCache(options.blockCacheBytes()));
            BloomFilter chunkFilter = track(resources, new BloomFilter(10));
            BloomFilter metaFilter = track(resources, new BloomFilter(10));

            ColumnFamilyOptions metaOptions = track(resources, new ColumnFamilyOptions())
                    .setTableFormatConfig(tableConfig(cache, metaFilter))
                    .setWriteBufferSize(options.writeBufferBytes())
                    .setMaxWriteBufferNumber(options.maxWriteBuffers())
                    .setMinWriteBufferNumberToMerge(options.mergeWriteBuffers())
                    // A bloom filter of whole keys in each memtable, so that a write's look-up of its new ids
                    // (keyMayExist) ends at the filter instead of a skip-list search: that search was a quarter
                    // of the RocksDB CPU of a PUT. 2 % of a memtable is about 15 bits per meta entry.
                    .setMemtableWholeKeyFiltering(true)
                    .setMemtablePrefixBloomSizeRatio(0.02)
                    .setLevel0FileNumCompactionTrigger(2)
                    .setPeriodicCompactionSeconds(6 * 3600);
            // Only entries written before the chunk log are in the default column family: no new writes,
            // so its memtable stays small; blob files it may hold stay readable without the blob options.
            ColumnFamilyOptions legacyOptions = track(resources, new ColumnFamilyOptions())
                    .setTableFormatConfig(tableConfig(cache, chunkFilter))
                    .setWriteBufferSize(1L << 20)
                    .setLevel0FileNumCompactionTrigger(2)
                    .setPeriodicCompactionSeconds(6 * 3600);
            DBOptions dbOptions = track(resources, new DBOptions())
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setMaxBackgroundJobs(options.backgroundJobs())
                    .setUseFsync(false)
                    .setUseDirectIoForFlushAndCompaction(options.directFlushWrites() && supportsDirectIo(dir))
                    .setMaxTotalWalSize(4 * options.writeBufferBytes())
                    .setRecycleLogFileNum(RECYCLED_WAL_FILES)
                    .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery)
                    .setInfoLogLevel(InfoLogLevel.INFO_LEVEL)
                    .setKeepLogFileNum(5)
                    .setMaxLogFileSize(16L << 20);
            WriteOptions unsyncedWrite = track(resources, new WriteOptions()).setSync(false);

            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, legacyOptions),
                    new ColumnFamilyDescriptor(META_CF.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            metaOptions));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            // Handles close before the database, and the database before the options it uses.
            List<AutoCloseable> ordered = new ArrayList<>(handles);
            ordered.add(db);
            ordered.addAll(resources);
            resources.clear();
            resources.addAll(ordered);
            ChunkLog log = ChunkLog.open(dir.resolve(CHUNKS_DIR), options.segmentBytes());
            resources.add(0, log);
            RocksShardStore store = new RocksShardStore(dir, db, handles.get(0), handles.get(1), unsyncedWrite,
                    List.copyOf(resources), log);
            store.recover();
            LOG.info("stash store opened dir={} writeBufferBytes={} segmentBytes={} segments={}", dir,
                    options.writeBufferBytes(), options.segmentBytes(), log.stats().segments());
            return store;
        } catch (ShardStoreException e) {
            closeAll(resources);
            throw e;
        } catch (RocksDBException e) {
            closeAll(resources);
            throw translate("open " + dir, null, e);
        } catch (RuntimeException e) {
            closeAll(resources);
            throw e;
        }
    }

    /**
     * Whether files in {@code dir} can be opened with O_DIRECT. Some file systems (tmpfs) refuse it,
     * and RocksDB would only find out at its first flush, and then stop taking writes.
     */
    static boolean supportsDirectIo(Path dir) {
        Optional<OpenOption> direct = DirectOpenOption.lookUp();
        if (direct.isEmpty()) {
            LOG.warn("this JVM offers no O_DIRECT open option; stash flushes go through the page cache");
            return false;
        }
        Path probe = dir.resolve("direct-io-probe.tmp");
        try {
            try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    direct.get())) {
                return channel.isOpen();
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("stash store dir={} does not take O_DIRECT ({}); flushes go through the page cache", dir,
                    e.toString());
            return false;
        }
    }

    private static BlockBasedTableConfig tableConfig(Cache cache, BloomFilter filter) {
        return new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(filter)
                .setCacheIndexAndFilterBlocks(true);
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> resources, T resource) {
        resources.add(resource);
        return resource;
    }

    /**
     * Makes the index agree with the chunk log after a crash (see the class comment), then starts
     * the log's new active segment and deletes the segments nothing points into any more.
     */
    private void recover() throws ShardStoreException {
        Optional<Long> newest = log.newestSegment();
        Optional<ChunkLog.Forced> forced = forcedMark().filter(f -> newest.isPresent() && f.segment() == newest.get());
        List<ShardId> lost = new ArrayList<>();
        int[] missingSegment = new int[1];
        int[] rotted = new int[1];
        forEachEntry((id, entry) -> {
            if (!entry.inChunkLog()) {
                return;
            }
            ChunkLocation location = entry.location();
            if (!log.exists(location.segment())) {
                missingSegment[0]++;
                lost.add(id);
            } else if (newest.isPresent() && location.segment() == newest.get() && !intact(id, entry)) {
                long end = location.position() + ChunkLog.recordBytes(entry.info().length());
                if (forced.isPresent() && end <= forced.get().length()) {
                    // Forced before a sync: acknowledged, and rotted since. Kept, so reads say CORRUPT.
                    rotted[0]++;
                    log.countLive(location, entry.info().length());
                } else {
                    lost.add(id);
                }
            } else {
                log.countLive(location, entry.info().length());
            }
        });
        if (!lost.isEmpty()) {
            try (WriteBatch batch = new WriteBatch(); WriteOptions sync = new WriteOptions().setSync(true)) {
                for (ShardId id : lost) {
                    batch.delete(metas, id.encode());
                }
                db.write(sync, batch);
            } catch (RocksDBException e) {
                throw translate("drop " + lost.size() + " index entries", null, e);
            }
            LOG.warn("stash store {}: dropped {} index entries whose chunk bytes did not survive a crash ({} in a"
                    + " deleted segment, {} missing or failing their CRC in the newest one); none was acknowledged",
                    dir, lost.size(), missingSegment[0], lost.size() - missingSegment[0]);
        }
        if (rotted[0] > 0) {
            LOG.error("stash store {}: {} acknowledged entries in the newest chunk log segment fail their CRC (their"
                    + " bytes were forced before a sync and changed since): kept, and read as CORRUPT", dir, rotted[0]);
        }
        log.startActive();
        // Deletes the sealed segments nothing is alive in, once the drops above are surely on disk.
        syncWal();
    }

    private static byte[] encodeForced(ChunkLog.Forced f) {
        return ByteBuffer.allocate(16).putLong(f.segment()).putLong(f.length()).array();
    }

    /** The last force a sync recorded, if any. */
    private Optional<ChunkLog.Forced> forcedMark() throws ShardStoreException {
        try {
            byte[] v = db.get(legacyChunks, FORCED_KEY);
            if (v == null || v.length != 16) {
                return Optional.empty();
            }
            java.nio.ByteBuffer b = ByteBuffer.wrap(v);
            return Optional.of(new ChunkLog.Forced(b.getLong(), b.getLong()));
        } catch (RocksDBException e) {
            throw translate("read the chunk log's forced mark", null, e);
        }
    }

    /** Whether the chunk value an index entry points to is there, whole, and that entry's. */
    private boolean intact(ShardId id, IndexEntry entry) {
        try {
            Optional<byte[]> value = log.read(id, entry.location(), entry.info().length());
            if (value.isEmpty()) {
                return false;
            }
            StashEntryInfo stored = EntryFormat.decodeChunkValue(id, value.get());
            return stored.equals(entry.info());
        } catch (ShardStoreException e) {
            LOG.debug("index entry of {} dropped: {}", id, e.getMessage());
            return false;
        }
    }

    @Override
    public void commit(List<Mutation> mutations) throws ShardStoreException {
        write(mutations);
        syncWal();
    }

    /**
     * Appends the chunk values to the chunk log, then writes their index entries (and the deletes) in
     * one unsynced RocksDB batch. Chunk bytes a failed index write leaves in the log are dead.
     */
    @Override
    public void write(List<Mutation> mutations) throws ShardStoreException {
        if (mutations.isEmpty()) {
            return;
        }
        synchronized (writeLock) {
            List<ShardId> ids = mutations.stream().map(Mutation::id).distinct().toList();
            List<byte[]> values = lookUp(ids, "read " + ids.size() + " index entries for a write");
            Map<ShardId, IndexEntry> current = new HashMap<>(ids.size() * 2);
            for (int i = 0; i < ids.size(); i++) {
                if (values.get(i) != null) {
                    current.put(ids.get(i), EntryFormat.decodeIndexEntry(ids.get(i), values.get(i)));
                }
            }
            List<ShardId> putIds = new ArrayList<>();
            List<ByteBuf> putValues = new ArrayList<>();
            for (Mutation mutation : mutations) {
                if (mutation instanceof Put put) {
                    putIds.add(put.id());
                    putValues.add(put.chunkValue());
                }
            }
            List<ChunkLocation> appended = putIds.isEmpty() ? List.of() : log.append(putIds, putValues);
            List<IndexEntry> superseded = new ArrayList<>();
            int next = 0;
            try (WriteBatch batch = new WriteBatch()) {
                for (Mutation mutation : mutations) {
                    byte[] key = mutation.id().encode();
                    IndexEntry before = current.remove(mutation.id());
                    if (before != null) {
                        superseded.add(before);
                        if (!before.inChunkLog()) {
                            batch.delete(legacyChunks, key);
                        }
                    }
                    if (mutation instanceof Put put) {
                        IndexEntry entry = new IndexEntry(put.info(), appended.get(next++));
                        batch.put(metas, key, EntryFormat.encodeMetaValue(entry.info(), entry.location()));
                        current.put(put.id(), entry);
                    } else if (before != null) {
                        batch.delete(metas, key);
                    }
                }
                db.write(unsyncedWrite, batch);
            } catch (RocksDBException e) {
                for (int i = 0; i < appended.size(); i++) {
                    log.removed(appended.get(i), putValues.get(i).readableBytes() - EntryFormat.CHUNK_HEADER_BYTES);
                }
                throw translate("commit " + mutations.size() + " mutations", null, e);
            }
            for (IndexEntry entry : superseded) {
                if (entry.inChunkLog()) {
                    log.removed(entry.location(), entry.info().length());
                }
            }
        }
    }

    /**
     * Forces the chunk log, then syncs the WAL: every write that returned before is durable, bytes
     * first. Then deletes the segments those writes emptied (only now are their deletes durable).
     */
    @Override
    public void syncWal() throws ShardStoreException {
        List<Long> emptied = log.emptySealedSegments();
        Optional<ChunkLog.Forced> forced = log.force();
        try {
            if (forced.isPresent()) {
                db.put(legacyChunks, unsyncedWrite, FORCED_KEY, encodeForced(forced.get()));
            }
            // SyncWAL fdatasyncs every WAL file up to the current one, without the write mutex:
            // writes go on while it runs. Everything a write() that returned had handed to the file
            // system (RocksDB flushes its WAL buffer on every write unless manual_wal_flush) is covered.
            db.syncWal();
        } catch (RocksDBException e) {
            throw translate("sync WAL", null, e);
        }
        log.delete(emptied);
    }

    /** Sealed segments due for compaction: sealed before {@code sealedBeforeMillis}, less than a quarter alive. */
    List<Long> compactionCandidates(long sealedBeforeMillis) {
        return log.compactionCandidates(sealedBeforeMillis, 0.25);
    }

    /**
     * Moves the live entries of sealed segment {@code number} to the active segment, then syncs,
     * which deletes the emptied segment. Per batch of records: copy each live one (under the write
     * lock), force the copies, then point each index entry at its copy only if it still points at the
     * old place (under the write lock again): a purge or a replacement that got there in between
     * wins, and its copy is dead. The copies are forced first because an index entry pointing into
     * the newest segment at bytes that never reached the disk would be dropped at open, and this entry
     * was acknowledged. A corrupt entry stays where it is (and keeps its segment), reported on read.
     *
     * @param beforeMove called with each record's id before it is looked at (tests race purges with it)
     * @param copied called, outside the write lock, with the bytes each batch copied (rate limiting)
     * @return the bytes of the entries moved
     */
    long compact(long number, Consumer<ShardId> beforeMove, LongConsumer copied) throws ShardStoreException {
        List<ChunkLog.ScannedRecord> records = log.scan(number);
        long total = 0;
        for (int from = 0; from < records.size(); from += COMPACTION_BATCH) {
            List<Move> moves = new ArrayList<>();
            long bytes = 0;
            for (ChunkLog.ScannedRecord record : records.subList(from, Math.min(records.size(),
                    from + COMPACTION_BATCH))) {
                beforeMove.accept(record.id());
                Move move = copyIfLive(record);
                if (move != null) {
                    moves.add(move);
                    bytes += move.valueBytes();
                }
            }
            if (!moves.isEmpty()) {
                log.force();
                total += repoint(moves);
                copied.accept(bytes);
            }
        }
        syncWal();
        return total;
    }

    /** An entry being moved by compaction: its copy is made and forced before the index points at it. */
    private record Move(ShardId id, StashEntryInfo info, ChunkLocation from, ChunkLocation to, int valueBytes) {
    }

    /** Copies one record's chunk value to the active segment if the index still points at it; null otherwise. */
    private Move copyIfLive(ChunkLog.ScannedRecord record) throws ShardStoreException {
        ShardId id = record.id();
        synchronized (writeLock) {
            IndexEntry entry = entry(id);
            if (entry == null || !record.location().equals(entry.location())) {
                return null;
            }
            byte[] value;
            try {
                Optional<byte[]> read = log.read(id, entry.location(), entry.info().length());
                if (read.isEmpty()) {
                    return null;
                }
                value = read.get();
                EntryFormat.decodeChunkValue(id, value);
            } catch (CorruptEntryException e) {
                LOG.error("chunk log compaction leaves a corrupt entry where it is: {}", e.getMessage());
                return null;
            }
            ChunkLocation to = log.append(List.of(id), List.of(Unpooled.wrappedBuffer(value))).get(0);
            return new Move(id, entry.info(), entry.location(), to, value.length);
        }
    }

    /** Points index entries at their forced copies where they still point at the old place; the bytes moved. */
    private long repoint(List<Move> moves) throws ShardStoreException {
        synchronized (writeLock) {
            List<Move> done = new ArrayList<>();
            List<Move> stale = new ArrayList<>();
            try (WriteBatch batch = new WriteBatch()) {
                for (Move move : moves) {
                    IndexEntry entry = entry(move.id());
                    if (entry != null && move.from().equals(entry.location())) {
                        batch.put(metas, move.id().encode(), EntryFormat.encodeMetaValue(move.info(), move.to()));
                        done.add(move);
                    } else {
                        stale.add(move);
                    }
                }
                db.write(unsyncedWrite, batch);
            } catch (RocksDBException e) {
                moves.forEach(move -> log.removed(move.to(), move.info().length()));
                throw translate("move " + moves.size() + " entries", null, e);
            }
            done.forEach(move -> log.removed(move.from(), move.info().length()));
            stale.forEach(move -> log.removed(move.to(), move.info().length()));
            return done.stream().mapToLong(Move::valueBytes).sum();
        }
    }

    /** Whether segment {@code number}'s file is still there. */
    boolean hasSegment(long number) {
        return log.exists(number);
    }

    /** The chunk log, for tests that look at its records. */
    ChunkLog chunkLog() {
        return log;
    }

    /** Segments, live and dead bytes of the chunk log, for the gauges. */
    ChunkLog.Stats chunkLogStats() {
        return log.stats();
    }

    @Override
    public Optional<StashEntryInfo> meta(ShardId id) throws ShardStoreException {
        return Optional.ofNullable(entry(id)).map(IndexEntry::info);
    }

    @Override
    public List<Optional<StashEntryInfo>> metas(List<ShardId> ids) throws ShardStoreException {
        List<byte[]> values = lookUp(ids, "read " + ids.size() + " metas");
        List<Optional<StashEntryInfo>> out = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            byte[] value = values.get(i);
            out.add(value == null ? Optional.empty() : Optional.of(EntryFormat.decodeMetaValue(ids.get(i), value)));
        }
        return out;
    }

    /** The meta values of {@code ids}, null where absent. */
    private List<byte[]> lookUp(List<ShardId> ids, String operation) throws ShardStoreException {
        List<byte[]> out = new ArrayList<>(ids.size());
        // Most ids a write touches are new: the memtables and bloom filters (keyMayExist, no I/O)
        // rule them out, and only the rest go to one multiGet. Saves a JNI multiGet per PUT.
        List<Integer> maybe = new ArrayList<>();
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            out.add(null);
            byte[] key = ids.get(i).encode();
            if (db.keyMayExist(metas, key, null)) {
                maybe.add(i);
                keys.add(key);
            }
        }
        if (keys.isEmpty()) {
            return out;
        }
        List<byte[]> values;
        try {
            values = db.multiGetAsList(Collections.nCopies(keys.size(), metas), keys);
        } catch (RocksDBException e) {
            throw translate(operation, null, e);
        }
        for (int j = 0; j < maybe.size(); j++) {
            out.set(maybe.get(j), values.get(j));
        }
        return out;
    }

    /** The index entry of {@code id}, or null when absent. */
    private IndexEntry entry(ShardId id) throws ShardStoreException {
        byte[] value;
        try {
            value = db.get(metas, id.encode());
        } catch (RocksDBException e) {
            throw translate("read meta", id, e);
        }
        return value == null ? null : EntryFormat.decodeIndexEntry(id, value);
    }

    @Override
    public Optional<byte[]> chunkValue(ShardId id) throws ShardStoreException {
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            IndexEntry entry = entry(id);
            if (entry == null) {
                return Optional.empty();
            }
            if (!entry.inChunkLog()) {
                try {
                    return Optional.ofNullable(db.get(legacyChunks, id.encode()));
                } catch (RocksDBException e) {
                    throw translate("read chunk", id, e);
                }
            }
            Optional<byte[]> value = log.read(id, entry.location(), entry.info().length());
            if (value.isPresent()) {
                return value;
            }
        }
        throw new ShardStoreException("read chunk", id + ": its segment went away " + READ_ATTEMPTS
                + " times while reading");
    }

    @Override
    public List<StashEntryInfo> listSlot(int vaultId, int shardIndex, Optional<ShardId> after, int limit)
            throws ShardStoreException {
        byte[] prefix = ShardId.slotPrefix(vaultId, shardIndex);
        byte[] upper = successor(prefix);
        List<StashEntryInfo> out = new ArrayList<>(Math.min(limit, 1024));
        try (Slice upperBound = upper == null ? null : new Slice(upper);
             ReadOptions read = new ReadOptions().setFillCache(false)) {
            if (upperBound != null) {
                read.setIterateUpperBound(upperBound);
            }
            try (RocksIterator it = db.newIterator(metas, read)) {
                if (after.isPresent()) {
                    byte[] start = after.get().encode();
                    it.seek(start);
                    if (it.isValid() && Arrays.equals(it.key(), start)) {
                        it.next();
                    }
                } else {
                    it.seek(prefix);
                }
                while (it.isValid() && out.size() < limit) {
                    byte[] key = it.key();
                    if (!startsWith(key, prefix)) {
                        break;
                    }
                    ShardId id = ShardId.decode(key);
                    out.add(EntryFormat.decodeMetaValue(id, it.value()));
                    it.next();
                }
                it.status();
            }
        } catch (RocksDBException e) {
            throw translate("list slot " + vaultId + "/" + shardIndex, null, e);
        }
        return out;
    }

    @Override
    public void forEachMeta(Consumer<StashEntryInfo> visitor) throws ShardStoreException {
        forEachEntry((id, entry) -> visitor.accept(entry.info()));
    }

    private void forEachEntry(BiConsumer<ShardId, IndexEntry> visitor) throws ShardStoreException {
        try (ReadOptions read = new ReadOptions().setFillCache(false);
             RocksIterator it = db.newIterator(metas, read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ShardId id = ShardId.decode(it.key());
                visitor.accept(id, EntryFormat.decodeIndexEntry(id, it.value()));
            }
            it.status();
        } catch (RocksDBException e) {
            throw translate("scan metas", null, e);
        }
    }

    @Override
    public void flush() throws ShardStoreException {
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, List.of(legacyChunks, metas));
        } catch (RocksDBException e) {
            throw translate("flush", null, e);
        }
    }

    @Override
    public String describe() {
        return "rocksdb+chunklog:" + dir;
    }

    @Override
    public void close() {
        closeAll(resources);
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", resource, e);
            }
        }
    }

    /** The smallest key greater than every key starting with {@code prefix}, or null if none. */
    static byte[] successor(byte[] prefix) {
        byte[] out = prefix.clone();
        for (int i = out.length - 1; i >= 0; i--) {
            if (out[i] != (byte) 0xFF) {
                out[i]++;
                return Arrays.copyOf(out, i + 1);
            }
        }
        return null;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static ShardStoreException translate(String operation, ShardId id, RocksDBException e) {
        Status status = e.getStatus();
        if (status != null && status.getCode() == Status.Code.Corruption) {
            return new CorruptEntryException(operation, id, "RocksDB reports corruption: " + e.getMessage(), e);
        }
        String code = status == null ? "" : " [" + status.getCodeString() + "]";
        return new ShardStoreException(operation, "RocksDB failed" + code + ": " + e.getMessage(), e);
    }
}
