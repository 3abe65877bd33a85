package io.shardvault.coordinator.catalog;

import io.shardvault.common.config.Settings;

/**
 * The memory of the catalog's RocksDB, the part of a coordinator's resident memory outside the JVM
 * that grows with the catalog ({@code docs/OPERATIONS.md}, "Memory").
 *
 * @param memtableBytes memtable memory over all tables; beyond it the largest memtable is flushed
 * @param blockCacheBytes block cache shared by all tables
 */
public record CatalogStoreOptions(long memtableBytes, long blockCacheBytes) {
    /** Memtables per table at most, when a table takes the whole budget: one filling, the others flushing. */
    public static final int MEMTABLES_PER_TABLE = 4;

    public CatalogStoreOptions {
        if (memtableBytes < 1 << 20 || blockCacheBytes < 1 << 20) {
            throw new IllegalArgumentException("catalog.rocksdb.memtableBytes and catalog.rocksdb.blockCacheBytes must be"
                    + " at least 1 MiB: " + memtableBytes + ", " + blockCacheBytes);
        }
    }

    public static CatalogStoreOptions from(Settings settings) {
        return new CatalogStoreOptions(settings.get(CatalogConfigKeys.MEMTABLE_BYTES),
                settings.get(CatalogConfigKeys.BLOCK_CACHE_BYTES));
    }

    public static CatalogStoreOptions defaults() {
        return from(Settings.empty());
    }

    /** One table's memtable size: a share of the budget, so one busy table can use all of it. */
    public long tableMemtableBytes() {
        return Math.max(1L << 20, memtableBytes / MEMTABLES_PER_TABLE);
    }
}
