package io.shardvault.stash;

import io.shardvault.common.config.Settings;

/**
 * The RocksDB tuning of a stash server; {@code docs/STASH.md} says why the defaults are what they
 * are.
 *
 * @param writeBufferBytes memtable size of the chunk column family
 * @param maxWriteBuffers memtables of the chunk column family
 * @param mergeWriteBuffers full memtables of the chunk column family merged into one flush
 * @param directFlushWrites whether flushes and compactions write with O_DIRECT
 * @param minBlobBytes values at least this large go to blob files
 * @param blobFileBytes target size of one blob file
 * @param blockCacheBytes block cache shared by both column families
 * @param backgroundJobs flush and compaction threads
 */
public record StashStoreOptions(long writeBufferBytes, int maxWriteBuffers, int mergeWriteBuffers,
                                boolean directFlushWrites, long minBlobBytes,
                                long blobFileBytes, long blockCacheBytes, int backgroundJobs) {
    public StashStoreOptions {
        if (mergeWriteBuffers < 1 || mergeWriteBuffers >= maxWriteBuffers) {
            throw new IllegalArgumentException("stash.rocksdb.mergeWriteBuffers=" + mergeWriteBuffers + " must be at least"
                    + " 1 and below stash.rocksdb.maxWriteBuffers=" + maxWriteBuffers
                    + ", or writes would stall with every memtable waiting for its flush");
        }
        if (writeBufferBytes < 1 << 20 || maxWriteBuffers < 2 || minBlobBytes < 0 || blobFileBytes < 1 << 20
                || blockCacheBytes < 1 << 20 || backgroundJobs < 2) {
            throw new IllegalArgumentException("bad stash store options: " + writeBufferBytes + ", " + maxWriteBuffers
                    + ", " + minBlobBytes + ", " + blobFileBytes + ", " + blockCacheBytes
                    + ", " + backgroundJobs);
        }
    }

    public static StashStoreOptions from(Settings settings) {
        return new StashStoreOptions(settings.get(StashConfigKeys.WRITE_BUFFER_BYTES),
                settings.get(StashConfigKeys.MAX_WRITE_BUFFERS), settings.get(StashConfigKeys.MERGE_WRITE_BUFFERS),
                settings.get(StashConfigKeys.DIRECT_FLUSH_WRITES),
                settings.get(StashConfigKeys.MIN_BLOB_BYTES),
                settings.get(StashConfigKeys.BLOB_FILE_BYTES), settings.get(StashConfigKeys.BLOCK_CACHE_BYTES),
                settings.get(StashConfigKeys.BACKGROUND_JOBS));
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
                mergeWriteBuffers, directFlushWrites, minBlobBytes, blobFileBytes,
                Math.max(1L << 20, blockCacheBytes / partitions), backgroundJobs);
    }

    public static StashStoreOptions defaults() {
        return from(Settings.empty());
    }
}
