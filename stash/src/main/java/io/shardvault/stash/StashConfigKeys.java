package io.shardvault.stash;

import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.rpc.RpcConfigKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of a stash server. The RocksDB options and the reasons for their defaults are
 * described in {@code docs/STASH.md}.
 */
public final class StashConfigKeys {
    private StashConfigKeys() {
    }

    public static final ConfigKey<Path> DATA_DIR = ConfigKey.ofPath("stash.dataDir", Path.of("data", "stash"),
            "Directory of the stash's RocksDB database (on SSD); created when absent.");
    public static final ConfigKey<Long> CAPACITY_BYTES = ConfigKey.ofBytes("stash.capacityBytes", 16L << 30,
            1L << 10, 1L << 50,
            "Byte budget: the sum of stored chunk lengths. A PUT that would exceed it is answered STASH_FULL.");
    public static final ConfigKey<Duration> SLOT_AGE_WARNING = ConfigKey.ofDuration("stash.slotAgeWarning",
            Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(30),
            "A pod slot whose oldest entry is older than this is named in a WARN: its pod is not purging.");
    public static final ConfigKey<Duration> SLOT_AGE_CHECK_INTERVAL = ConfigKey.ofDuration(
            "stash.slotAgeCheckInterval", Duration.ofMinutes(1), Duration.ofMillis(10), Duration.ofDays(1),
            "How often the slot-age check runs.");
    public static final ConfigKey<Integer> MAX_LIST_ENTRIES = ConfigKey.ofInt("stash.maxListEntries", 10_000, 1,
            1_000_000, "Most entries in one LIST page, whatever the caller asks for.");
    public static final ConfigKey<Long> MAX_BATCH_BYTES = ConfigKey.ofBytes("stash.commit.maxBatchBytes", 16L << 20,
            1L << 10, 1L << 30, "Most chunk bytes one group commit (one WAL write and sync) carries.");
    public static final ConfigKey<Long> MAX_QUEUED_BYTES = ConfigKey.ofBytes("stash.commit.maxQueuedBytes",
            256L << 20, 1L << 10, 1L << 40,
            "Chunk bytes waiting for a group commit; beyond this a PUT is answered BUSY.");
    public static final ConfigKey<Integer> PARTITIONS = ConfigKey.ofInt("stash.partitions", 2, 1, 256,
            "RocksDB databases per stash server, each with its own WAL and committer, written and synced in parallel;"
                    + " entries go to one by file. Fixed when the data directory is first used (recorded in its"
                    + " stash.layout). The memtable and block cache sizes below are totals, shared out evenly.");
    public static final ConfigKey<Long> WRITE_BUFFER_BYTES = ConfigKey.ofBytes("stash.rocksdb.writeBufferBytes",
            512L << 20, 1L << 20, 1L << 34,
            "Memtable size of the chunk column family, over all partitions (each gets its share). Entries purged"
                    + " before their memtable flushes never reach a blob file. Memory: up to maxWriteBuffers x this,"
                    + " plus a quarter of that for metadata.");
    public static final ConfigKey<Integer> MAX_WRITE_BUFFERS = ConfigKey.ofInt("stash.rocksdb.maxWriteBuffers", 4, 2,
            64, "Memtables of the chunk column family, so writes continue while one flushes.");
    public static final ConfigKey<Integer> MERGE_WRITE_BUFFERS = ConfigKey.ofInt("stash.rocksdb.mergeWriteBuffers", 2,
            1, 63, "Full memtables of the chunk column family merged into one flush. With 2, an entry written in one"
                    + " memtable and purged in the next never reaches a blob file either. Must be below"
                    + " maxWriteBuffers.");
    public static final ConfigKey<Boolean> DIRECT_FLUSH_WRITES = ConfigKey.ofBoolean(
            "stash.rocksdb.directFlushWrites", true, "Write flushes and compactions (blob and SST files) with O_DIRECT,"
                    + " past the page cache: saves copying every flushed byte into page cache pages that are never"
                    + " read again unless a pod asks for its shards back.");
    public static final ConfigKey<Long> MIN_BLOB_BYTES = ConfigKey.ofBytes("stash.rocksdb.minBlobBytes", 4L << 10,
            0, 1L << 30, "Values at least this large go to blob files instead of SST files.");
    public static final ConfigKey<Long> BLOB_FILE_BYTES = ConfigKey.ofBytes("stash.rocksdb.blobFileBytes", 64L << 20,
            1L << 20, 1L << 34, "Target size of one blob file; smaller files become wholly garbage, and are deleted,"
                    + " sooner.");
    public static final ConfigKey<Long> BLOCK_CACHE_BYTES = ConfigKey.ofBytes("stash.rocksdb.blockCacheBytes",
            64L << 20, 1L << 20, 1L << 40, "Block cache of both column families, over all partitions (each gets its share).");
    public static final ConfigKey<Integer> BACKGROUND_JOBS = ConfigKey.ofInt("stash.rocksdb.backgroundJobs", 4, 2,
            64, "RocksDB flush and compaction threads.");

    /** Every stash key, plus the RPC keys a stash process reads. */
    public static List<ConfigKey<?>> all() {
        List<ConfigKey<?>> all = new ArrayList<>(List.of(DATA_DIR, CAPACITY_BYTES, SLOT_AGE_WARNING,
                SLOT_AGE_CHECK_INTERVAL, MAX_LIST_ENTRIES, MAX_BATCH_BYTES, MAX_QUEUED_BYTES, PARTITIONS, WRITE_BUFFER_BYTES,
                MAX_WRITE_BUFFERS, MERGE_WRITE_BUFFERS, DIRECT_FLUSH_WRITES,
                MIN_BLOB_BYTES, BLOB_FILE_BYTES, BLOCK_CACHE_BYTES, BACKGROUND_JOBS));
        all.addAll(RpcConfigKeys.all());
        return List.copyOf(all);
    }
}
