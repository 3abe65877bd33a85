package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.shardvault.common.ShardId;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.StashStoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
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
 * The {@link ShardStore} on one RocksDB database: chunk values in the default column family (in
 * blob files), meta values in column family {@code meta}; both keyed by {@link ShardId#encode()},
 * laid out as {@link EntryFormat} says. {@code docs/STASH.md} explains the options.
 *
 * <p>Thread-safe. Durability: {@link #commit} returns after RocksDB has written and fdatasynced
 * the WAL; concurrent commits from several threads share syncs through RocksDB's write groups,
 * and the stash's own {@link GroupCommitter} batches on top. A RocksDB error leaves the store
 * usable for reads; after a failed write RocksDB may refuse further writes until reopened.
 * Every RocksDB exception is translated into a {@link ShardStoreException} naming the operation.
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

    /** A write batch record's bytes besides its key and value: tag, column family id, two varint lengths. */
    private static final int PER_RECORD_OVERHEAD = 16;
    /** Where a chunk's key is put for {@link WriteBatch#put(ColumnFamilyHandle, ByteBuffer, ByteBuffer)}, which copies it. */
    private static final ThreadLocal<ByteBuffer> DIRECT_KEY = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(ShardId.ENCODED_LENGTH));

    private final Path dir;
    private final RocksDB db;
    private final ColumnFamilyHandle chunks;
    private final ColumnFamilyHandle metas;
    private final List<AutoCloseable> resources;
    private final WriteOptions syncWrite;
    private final WriteOptions unsyncedWrite;

    private RocksShardStore(Path dir, RocksDB db, ColumnFamilyHandle chunks, ColumnFamilyHandle metas,
                            WriteOptions syncWrite, WriteOptions unsyncedWrite, List<AutoCloseable> resources) {
        this.dir = dir;
        this.db = db;
        this.chunks = chunks;
        this.metas = metas;
        this.syncWrite = syncWrite;
        this.unsyncedWrite = unsyncedWrite;
        this.resources = resources;
    }

    /** Opens (or creates) the database in {@code dir}, replaying its WAL. */
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

            ColumnFamilyOptions chunkOptions = track(resources, new ColumnFamilyOptions())
                    .setTableFormatConfig(tableConfig(cache, chunkFilter))
                    .setWriteBufferSize(options.writeBufferBytes())
                    .setMaxWriteBufferNumber(options.maxWriteBuffers())
                    .setMinWriteBufferNumberToMerge(options.mergeWriteBuffers())
                    .setLevel0FileNumCompactionTrigger(2)
                    .setPeriodicCompactionSeconds(6 * 3600)
                    .setEnableBlobFiles(true)
                    .setMinBlobSize(options.minBlobBytes())
                    .setBlobFileSize(options.blobFileBytes())
                    .setBlobCompressionType(CompressionType.NO_COMPRESSION)
                    .setEnableBlobGarbageCollection(true)
                    .setBlobGarbageCollectionAgeCutoff(0.5)
                    .setBlobGarbageCollectionForceThreshold(0.5);
            ColumnFamilyOptions metaOptions = track(resources, new ColumnFamilyOptions())
                    .setTableFormatConfig(tableConfig(cache, metaFilter))
                    .setWriteBufferSize(Math.max(1L << 20, options.writeBufferBytes() / 4))
                    .setMaxWriteBufferNumber(options.maxWriteBuffers())
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
            WriteOptions syncWrite = track(resources, new WriteOptions()).setSync(true);
            WriteOptions unsyncedWrite = track(resources, new WriteOptions()).setSync(false);

            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, chunkOptions),
                    new ColumnFamilyDescriptor(META_CF.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            metaOptions));
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            // Handles close before the database, and the database before the options it uses.
            List<AutoCloseable> ordered = new ArrayList<>(handles);
            ordered.add(db);
            ordered.addAll(resources);
            LOG.info("stash store opened dir={} writeBufferBytes={} minBlobBytes={} blobFileBytes={}", dir,
                    options.writeBufferBytes(), options.minBlobBytes(), options.blobFileBytes());
            return new RocksShardStore(dir, db, handles.get(0), handles.get(1), syncWrite, unsyncedWrite,
                    ordered);
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
        Optional<OpenOption> direct = directOpenOption();
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

    /**
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up by name: the class is in
     * {@code jdk.unsupported}, and javac warns about any mention of it (an error with -Werror).
     */
    private static Optional<OpenOption> directOpenOption() {
        try {
            Object direct = Class.forName("com.sun.nio.file.ExtendedOpenOption").getField("DIRECT").get(null);
            return direct instanceof OpenOption option ? Optional.of(option) : Optional.empty();
        } catch (ReflectiveOperationException | LinkageError e) {
            return Optional.empty();
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

    @Override
    public void commit(List<Mutation> mutations) throws ShardStoreException {
        apply(mutations, syncWrite);
    }

    @Override
    public void write(List<Mutation> mutations) throws ShardStoreException {
        apply(mutations, unsyncedWrite);
    }

    @Override
    public void syncWal() throws ShardStoreException {
        try {
            // SyncWAL fdatasyncs every WAL file up to the current one, without the write mutex:
            // writes go on while it runs. Everything a write() that returned had handed to the file
            // system (RocksDB flushes its WAL buffer on every write unless manual_wal_flush) is covered.
            db.syncWal();
        } catch (RocksDBException e) {
            throw translate("sync WAL", null, e);
        }
    }

    private void apply(List<Mutation> mutations, WriteOptions writeOptions) throws ShardStoreException {
        if (mutations.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch(reservedBytes(mutations))) {
            ByteBuffer directKey = DIRECT_KEY.get();
            for (Mutation mutation : mutations) {
                byte[] key = mutation.id().encode();
                if (mutation instanceof Put put) {
                    batch.put(metas, key, EntryFormat.encodeMetaValue(put.info()));
                    ByteBuf value = put.chunkValue();
                    if (value.isDirect() && value.nioBufferCount() == 1) {
                        // One copy, straight into the batch; a byte[] would first be copied out of the heap by JNI.
                        directKey.clear();
                        directKey.put(key).flip();
                        batch.put(chunks, directKey, value.nioBuffer());
                    } else {
                        batch.put(chunks, key, ByteBufUtil.getBytes(value));
                    }
                } else {
                    batch.delete(metas, key);
                    batch.delete(chunks, key);
                }
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw translate("commit " + mutations.size() + " mutations", null, e);
        }
    }

    /**
     * Room for the whole batch up front: a write batch grows by doubling, and every doubling would
     * copy the chunk bytes already in it once more.
     */
    private static int reservedBytes(List<Mutation> mutations) {
        long bytes = 12; // the batch header
        for (Mutation mutation : mutations) {
            bytes += 2L * (ShardId.ENCODED_LENGTH + PER_RECORD_OVERHEAD);
            if (mutation instanceof Put put) {
                bytes += EntryFormat.META_BYTES + put.chunkValue().readableBytes();
            }
        }
        return (int) Math.min(bytes, Integer.MAX_VALUE - 8);
    }

    @Override
    public Optional<StashEntryInfo> meta(ShardId id) throws ShardStoreException {
        byte[] value;
        try {
            value = db.get(metas, id.encode());
        } catch (RocksDBException e) {
            throw translate("read meta", id, e);
        }
        return value == null ? Optional.empty() : Optional.of(EntryFormat.decodeMetaValue(id, value));
    }

    @Override
    public List<Optional<StashEntryInfo>> metas(List<ShardId> ids) throws ShardStoreException {
        if (ids.isEmpty()) {
            return List.of();
        }
        // Most ids a commit touches are new: the memtables and bloom filters (keyMayExist, no I/O)
        // rule them out, and only the rest go to one multiGet. Saves a JNI multiGet per PUT.
        List<Optional<StashEntryInfo>> out = new ArrayList<>(java.util.Collections.nCopies(ids.size(),
                Optional.empty()));
        List<Integer> maybe = new ArrayList<>();
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
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
            values = db.multiGetAsList(java.util.Collections.nCopies(keys.size(), metas), keys);
        } catch (RocksDBException e) {
            throw translate("read " + keys.size() + " metas", null, e);
        }
        for (int j = 0; j < maybe.size(); j++) {
            byte[] value = values.get(j);
            int i = maybe.get(j);
            if (value != null) {
                out.set(i, Optional.of(EntryFormat.decodeMetaValue(ids.get(i), value)));
            }
        }
        return out;
    }

    @Override
    public Optional<byte[]> chunkValue(ShardId id) throws ShardStoreException {
        try {
            return Optional.ofNullable(db.get(chunks, id.encode()));
        } catch (RocksDBException e) {
            throw translate("read chunk", id, e);
        }
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
        try (ReadOptions read = new ReadOptions().setFillCache(false);
             RocksIterator it = db.newIterator(metas, read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ShardId id = ShardId.decode(it.key());
                visitor.accept(EntryFormat.decodeMetaValue(id, it.value()));
            }
            it.status();
        } catch (RocksDBException e) {
            throw translate("scan metas", null, e);
        }
    }

    @Override
    public void flush() throws ShardStoreException {
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, List.of(chunks, metas));
        } catch (RocksDBException e) {
            throw translate("flush", null, e);
        }
    }

    @Override
    public String describe() {
        return "rocksdb:" + dir;
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
