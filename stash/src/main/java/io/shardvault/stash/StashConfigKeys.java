package io.shardvault.stash;

import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.rpc.RpcConfigKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of a stash server. The storage options (RocksDB index, chunk log) and the reasons for
 * their defaults are described in {@code docs/STASH.md}.
 */
public final class StashConfigKeys {
    private StashConfigKeys() {
    }

    public static final ConfigKey<Path> DATA_DIR = ConfigKey.ofPath("stash.dataDir", Path.of("data", "stash"),
            "Directory of the stash's data (on SSD): per partition, a RocksDB index and a chunk log; created when"
                    + " absent.");
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
            "Memtable size of the index (the meta column family), over all partitions (each gets its share)."
                    + " Index entries purged before their memtable flushes never reach an SST file. Memory: up to"
                    + " maxWriteBuffers x this, filled only as fast as entries arrive.");
    public static final ConfigKey<Integer> MAX_WRITE_BUFFERS = ConfigKey.ofInt("stash.rocksdb.maxWriteBuffers", 4, 2,
            64, "Memtables of the index, so writes continue while one flushes.");
    public static final ConfigKey<Integer> MERGE_WRITE_BUFFERS = ConfigKey.ofInt("stash.rocksdb.mergeWriteBuffers", 2,
            1, 63, "Full memtables of the index merged into one flush. With 2, an entry written in one"
                    + " memtable and purged in the next never reaches an SST file either. Must be below"
                    + " maxWriteBuffers.");
    public static final ConfigKey<Boolean> DIRECT_FLUSH_WRITES = ConfigKey.ofBoolean(
            "stash.rocksdb.directFlushWrites", true, "Write RocksDB flushes and compactions (SST files) with O_DIRECT,"
                    + " past the page cache.");
    public static final ConfigKey<Long> BLOCK_CACHE_BYTES = ConfigKey.ofBytes("stash.rocksdb.blockCacheBytes",
            64L << 20, 1L << 20, 1L << 40, "Block cache of both column families, over all partitions (each gets its share).");
    public static final ConfigKey<Integer> BACKGROUND_JOBS = ConfigKey.ofInt("stash.rocksdb.backgroundJobs", 4, 2,
            64, "RocksDB flush and compaction threads.");
    public static final ConfigKey<Long> SEGMENT_BYTES = ConfigKey.ofBytes("stash.chunkLog.segmentBytes", 256L << 20,
            64L << 10, 1L << 40, "A chunk log segment (the file chunk bytes are appended to, one per partition at a"
                    + " time) is sealed and the next one started at this size. A segment nothing is alive in any more"
                    + " is kept for a new segment to reuse (at most two per partition: their disk is held) or"
                    + " deleted: smaller segments give space back sooner; larger ones mean fewer files.");
    public static final ConfigKey<Duration> COMPACT_AFTER = ConfigKey.ofDuration("stash.chunkLog.compactAfter",
            Duration.ofMinutes(10), Duration.ZERO, Duration.ofDays(30), "A sealed chunk log segment at least this"
                    + " old with less than a quarter of its bytes alive has its live entries copied to the active"
                    + " segment, and is deleted: a few entries a pod does not purge cannot pin whole segments.");
    public static final ConfigKey<Long> COMPACT_BYTES_PER_SECOND = ConfigKey.ofBytes(
            "stash.chunkLog.compactBytesPerSecond", 32L << 20, 1L << 10, 1L << 40,
            "Most chunk bytes per second chunk log compaction copies, per partition.");

    /** Every stash key, plus the RPC keys a stash process reads. */
    public static List<ConfigKey<?>> all() {
        List<ConfigKey<?>> all = new ArrayList<>(List.of(DATA_DIR, CAPACITY_BYTES, SLOT_AGE_WARNING,
                SLOT_AGE_CHECK_INTERVAL, MAX_LIST_ENTRIES, MAX_BATCH_BYTES, MAX_QUEUED_BYTES, PARTITIONS, WRITE_BUFFER_BYTES,
                MAX_WRITE_BUFFERS, MERGE_WRITE_BUFFERS, DIRECT_FLUSH_WRITES, BLOCK_CACHE_BYTES, BACKGROUND_JOBS,
                SEGMENT_BYTES, COMPACT_AFTER, COMPACT_BYTES_PER_SECOND));
        all.addAll(RpcConfigKeys.all());
        return List.copyOf(all);
    }
}
