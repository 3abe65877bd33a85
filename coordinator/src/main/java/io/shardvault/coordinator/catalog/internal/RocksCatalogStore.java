package io.shardvault.coordinator.catalog.internal;

import io.shardvault.coordinator.catalog.CatalogStoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatchWithIndex;
import org.rocksdb.WriteOptions;

/**
 * The catalog's RocksDB: one column family per {@link Table}, written only through
 * {@link Txn}s (one per applied log entry, committed as one atomic batch) and read through
 * {@link View}s pinned to a RocksDB snapshot.
 *
 * <p>Durability: batches go to RocksDB's WAL without fsync. The Raft log is the durable record;
 * each batch also stores the log index it applies ({@link #lastApplied}), so after a crash the
 * entries the DB lost are applied again from the log and the ones it kept are skipped.
 *
 * <p>Memory: the memtables of all tables together stay near {@link CatalogStoreOptions#memtableBytes()}
 * (RocksDB flushes the largest one beyond it), and one block cache of
 * {@link CatalogStoreOptions#blockCacheBytes()} serves every table. Without them, each of the ~14
 * column families could hold 6 memtables of 128 MiB ({@code optimizeLevelStyleCompaction}'s).
 *
 * <p>Thread-safe for one writer (the apply thread) and many readers. Not usable after {@link #close}.
 */
final class RocksCatalogStore implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] LAST_APPLIED = Keys.utf8("lastApplied");

    private final Path dir;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions cfOptions;
    private final Cache blockCache;
    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles;
    private final Map<Table, ColumnFamilyHandle> byTable = new EnumMap<>(Table.class);
    private final WriteOptions writeOptions = new WriteOptions();

    private RocksCatalogStore(Path dir, DBOptions dbOptions, ColumnFamilyOptions cfOptions, Cache blockCache,
                              RocksDB db, List<ColumnFamilyHandle> handles) {
        this.dir = dir;
        this.dbOptions = dbOptions;
        this.cfOptions = cfOptions;
        this.blockCache = blockCache;
        this.db = db;
        this.handles = handles;
        for (Table t : Table.values()) {
            byTable.put(t, handles.get(t.ordinal() + 1));
        }
    }

    /** Opens (creating when absent) the store in {@code dir}, with the default options. */
    static RocksCatalogStore open(Path dir) throws IOException {
        return open(dir, CatalogStoreOptions.defaults());
    }

    /** Opens (creating when absent) the store in {@code dir}. */
    static RocksCatalogStore open(Path dir, CatalogStoreOptions options) throws IOException {
        Files.createDirectories(dir);
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setDbWriteBufferSize(options.memtableBytes());
        Cache blockCache = new LRUCache(options.blockCacheBytes());
        ColumnFamilyOptions cfOptions = new ColumnFamilyOptions().optimizeLevelStyleCompaction()
                .setWriteBufferSize(options.tableMemtableBytes())
                .setMaxWriteBufferNumber(CatalogStoreOptions.MEMTABLES_PER_TABLE)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(blockCache));
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
        for (Table t : Table.values()) {
            descriptors.add(new ColumnFamilyDescriptor(t.cfNameBytes(), cfOptions));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            return new RocksCatalogStore(dir, dbOptions, cfOptions, blockCache, db, handles);
        } catch (RocksDBException e) {
            dbOptions.close();
            cfOptions.close();
            blockCache.close();
            throw new IOException("open catalog RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    Path dir() {
        return dir;
    }

    ColumnFamilyHandle handle(Table t) {
        return byTable.get(t);
    }

    /** The {@code (term, index)} of the last log entry applied, {@code (0, -1)} for a new store. */
    long[] lastApplied() throws IOException {
        try {
            byte[] v = db.get(handle(Table.COUNTERS), LAST_APPLIED);
            if (v == null) {
                return new long[] {0, -1};
            }
            Wire.Reader r = new Wire.Reader(v);
            return new long[] {r.i64(), r.i64()};
        } catch (RocksDBException e) {
            throw new IOException("read lastApplied: " + e.getMessage(), e);
        }
    }

    /** Bytes held by the memtables of every table, active and immutable (RocksDB's own count). */
    long memtableBytes() throws IOException {
        try {
            return db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables");
        } catch (RocksDBException e) {
            throw new IOException("read the memtable size: " + e.getMessage(), e);
        }
    }

    /** A write transaction for one log entry. */
    Txn begin() {
        return new Txn();
    }

    /** A consistent read view; close it to release its snapshot. */
    View view() {
        return new View();
    }

    /** Writes a checkpoint (hard-linked SST files plus a copy of the rest) into {@code target}, which must not exist. */
    void checkpoint(Path target) throws IOException {
        try (Checkpoint cp = Checkpoint.create(db)) {
            cp.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw new IOException("checkpoint to " + target + ": " + e.getMessage(), e);
        }
    }

    /** A CRC32C over every table's keys and values in order, from one snapshot: equal state, equal sum. */
    static long checksum(View view) {
        CRC32C crc = new CRC32C();
        for (Table t : Table.values()) {
            crc.update(t.cfNameBytes());
            try (RocksIterator it = view.iterator(t)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] k = it.key();
                    byte[] v = it.value();
                    crc.update(new Wire.Writer(8).i32(k.length).i32(v.length).toByteArray());
                    crc.update(k);
                    crc.update(v);
                }
            }
        }
        return crc.getValue();
    }

    @Override
    public void close() {
        writeOptions.close();
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        dbOptions.close();
        cfOptions.close();
        blockCache.close();
    }

    /** Reads shared by transactions and views. */
    interface Reads {
        byte[] get(Table t, byte[] key);

        /** An iterator over {@code t}; the caller closes it. */
        RocksIterator iterator(Table t);
    }

    /** One log entry's writes: read-your-writes, committed atomically with the applied index. */
    final class Txn implements Reads, AutoCloseable {
        private final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
        private final ReadOptions readOptions = new ReadOptions();

        @Override
        public byte[] get(Table t, byte[] key) {
            try {
                return batch.getFromBatchAndDB(db, handle(t), readOptions, key);
            } catch (RocksDBException e) {
                throw new StoreFailure("get from " + t.cfName, e);
            }
        }

        @Override
        public RocksIterator iterator(Table t) {
            return batch.newIteratorWithBase(handle(t), db.newIterator(handle(t), readOptions));
        }

        void put(Table t, byte[] key, byte[] value) {
            try {
                batch.put(handle(t), key, value);
            } catch (RocksDBException e) {
                throw new StoreFailure("put to " + t.cfName, e);
            }
        }

        void delete(Table t, byte[] key) {
            try {
                batch.delete(handle(t), key);
            } catch (RocksDBException e) {
                throw new StoreFailure("delete from " + t.cfName, e);
            }
        }

        /** Marks a point {@link #rollBack} returns to (one item of a batch operation). */
        void savePoint() {
            batch.setSavePoint();
        }

        /** Drops the writes made since the last {@link #savePoint}. */
        void rollBack() {
            try {
                batch.rollbackToSavePoint();
            } catch (RocksDBException e) {
                throw new StoreFailure("rollback to save point", e);
            }
        }

        /** Drops every write made so far (an operation failed with a typed answer). */
        void discard() {
            batch.clear();
        }

        void commit(long term, long index) throws IOException {
            put(Table.COUNTERS, LAST_APPLIED, new Wire.Writer(16).i64(term).i64(index).toByteArray());
            try {
                db.write(writeOptions, batch);
            } catch (RocksDBException e) {
                throw new IOException("commit of log index " + index + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            batch.close();
            readOptions.close();
        }
    }

    /** A consistent read-only view of the store. */
    final class View implements Reads, AutoCloseable {
        private final Snapshot snapshot = db.getSnapshot();
        private final ReadOptions readOptions = new ReadOptions().setSnapshot(snapshot);

        @Override
        public byte[] get(Table t, byte[] key) {
            try {
                return db.get(handle(t), readOptions, key);
            } catch (RocksDBException e) {
                throw new StoreFailure("get from " + t.cfName, e);
            }
        }

        @Override
        public RocksIterator iterator(Table t) {
            return db.newIterator(handle(t), readOptions);
        }

        @Override
        public void close() {
            readOptions.close();
            db.releaseSnapshot(snapshot);
        }
    }

    /** RocksDB failed under us: not an answer, a broken peer. */
    static final class StoreFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoreFailure(String what, RocksDBException cause) {
            super(what + ": " + cause.getMessage(), cause);
        }
    }
}
