package io.shardvault.stash;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Objects;

/**
 * The storage tuning of a stash server: its RocksDB index and its chunk log; {@code docs/STASH.md}
 * says why the defaults are what they are.
 *
 * @param writeBufferBytes memtable size of the index (meta column family)
 * @param maxWriteBuffers memtables of the index
 * @param mergeWriteBuffers full memtables of the index merged into one flush
 * @param directFlushWrites whether flushes and compactions write with O_DIRECT
 * @param blockCacheBytes block cache shared by both column families
 * @param backgroundJobs flush and compaction threads
 * @param segmentBytes a chunk log segment is sealed, and the next one started, at this size
 * @param compactAfter a sealed segment this old with less than a quarter of it alive is compacted
 * @param compactBytesPerSecond most bytes compaction copies per second
 */
public record StashStoreOptions(long writeBufferBytes, int maxWriteBuffers, int mergeWriteBuffers,
                                boolean directFlushWrites, long blockCacheBytes, int backgroundJobs,
                                long segmentBytes, Duration compactAfter, long compactBytesPerSecond) {
    public StashStoreOptions {
        Objects.requireNonNull(compactAfter, "compactAfter");
        if (mergeWriteBuffers < 1 || mergeWriteBuffers >= maxWriteBuffers) {
            throw new IllegalArgumentException("stash.rocksdb.mergeWriteBuffers=" + mergeWriteBuffers + " must be at least"
                    + " 1 and below stash.rocksdb.maxWriteBuffers=" + maxWriteBuffers
                    + ", or writes would stall with every memtable waiting for its flush");
        }
        if (writeBufferBytes < 1 << 20 || maxWriteBuffers < 2 || blockCacheBytes < 1 << 20 || backgroundJobs < 2
                || segmentBytes < 1 << 16 || compactAfter.isNegative() || compactBytesPerSecond < 1) {
            throw new IllegalArgumentException("bad stash store options: writeBufferBytes=" + writeBufferBytes
                    + " maxWriteBuffers=" + maxWriteBuffers + " blockCacheBytes=" + blockCacheBytes + " backgroundJobs="
                    + backgroundJobs + " segmentBytes=" + segmentBytes + " compactAfter=" + compactAfter
                    + " compactBytesPerSecond=" + compactBytesPerSecond);
        }
    }

    public static StashStoreOptions from(Settings settings) {
        return new StashStoreOptions(settings.get(StashConfigKeys.WRITE_BUFFER_BYTES),
                settings.get(StashConfigKeys.MAX_WRITE_BUFFERS), settings.get(StashConfigKeys.MERGE_WRITE_BUFFERS),
                settings.get(StashConfigKeys.DIRECT_FLUSH_WRITES), settings.get(StashConfigKeys.BLOCK_CACHE_BYTES),
                settings.get(StashConfigKeys.BACKGROUND_JOBS), settings.get(StashConfigKeys.SEGMENT_BYTES),
                settings.get(StashConfigKeys.COMPACT_AFTER), settings.get(StashConfigKeys.COMPACT_BYTES_PER_SECOND));
    }

    /**
     * The options of one of {@code partitions} databases: the memtable and block cache sizes shared
     * out (at least 1 MiB each), the rest as they are. Each partition takes a share of the writes, so
     * its share of the memtable holds entries as long as the whole would.
     */
    public StashStoreOptions perPartition(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        return new StashStoreOptions(Math.max(1L << 20, writeBufferBytes / partitions), maxWriteBuffers,
                mergeWriteBuffers, directFlushWrites, Math.max(1L << 20, blockCacheBytes / partitions), backgroundJobs,
                segmentBytes, compactAfter, compactBytesPerSecond);
    }

    /** These options with another segment size and compaction age, for tests. */
    public StashStoreOptions withChunkLog(long segment, Duration compactionAge) {
        return new StashStoreOptions(writeBufferBytes, maxWriteBuffers, mergeWriteBuffers, directFlushWrites,
                blockCacheBytes, backgroundJobs, segment, compactionAge, compactBytesPerSecond);
    }

    public static StashStoreOptions defaults() {
        return from(Settings.empty());
    }
}
