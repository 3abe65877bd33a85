package io.shardvault.stash;

import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The options of one stash server, resolved once at startup.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>dataDir</td><td>data/stash</td><td>the data directory: {@code stash.layout}; per partition a RocksDB index and a chunk log</td></tr>
 *   <tr><td>capacityBytes</td><td>16 GiB</td><td>byte budget of stored chunks; beyond it, STASH_FULL</td></tr>
 *   <tr><td>slotAgeWarning</td><td>10 min</td><td>a slot with an older entry is named in a WARN</td></tr>
 *   <tr><td>slotAgeCheckInterval</td><td>1 min</td><td>how often slot ages are checked</td></tr>
 *   <tr><td>maxListEntries</td><td>10,000</td><td>cap on one LIST page</td></tr>
 *   <tr><td>maxBatchBytes</td><td>16 MiB</td><td>chunk bytes per group commit</td></tr>
 *   <tr><td>maxQueuedBytes</td><td>256 MiB</td><td>chunk bytes awaiting commit; beyond it, BUSY (each
 *       partition's committer gets an even share)</td></tr>
 *   <tr><td>partitions</td><td>2</td><td>databases written in parallel, for a new data directory</td></tr>
 * </table>
 */
public record StashConfig(Path dataDir, long capacityBytes, Duration slotAgeWarning, RpcServerConfig rpc,
                          Duration slotAgeCheckInterval, int maxListEntries, long maxBatchBytes, long maxQueuedBytes,
                          int partitions, StashStoreOptions store) {
    public StashConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(slotAgeWarning, "slotAgeWarning");
        Objects.requireNonNull(rpc, "rpc");
        Objects.requireNonNull(slotAgeCheckInterval, "slotAgeCheckInterval");
        Objects.requireNonNull(store, "store");
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must be >= 0: " + capacityBytes);
        }
        if (slotAgeCheckInterval.isNegative() || slotAgeCheckInterval.isZero()) {
            throw new IllegalArgumentException("slotAgeCheckInterval must be > 0: " + slotAgeCheckInterval);
        }
        if (maxListEntries < 1) {
            throw new IllegalArgumentException("maxListEntries must be >= 1: " + maxListEntries);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
        }
        if (maxBatchBytes < 1 || maxQueuedBytes < 1) {
            throw new IllegalArgumentException("maxBatchBytes and maxQueuedBytes must be >= 1: " + maxBatchBytes
                    + ", " + maxQueuedBytes);
        }
    }

    /** Resolves every stash and RPC server setting; unknown keys are not checked here (see {@link StashMain}). */
    public static StashConfig from(Settings settings) {
        return new StashConfig(settings.get(StashConfigKeys.DATA_DIR), settings.get(StashConfigKeys.CAPACITY_BYTES),
                settings.get(StashConfigKeys.SLOT_AGE_WARNING), RpcServerConfig.from(settings),
                settings.get(StashConfigKeys.SLOT_AGE_CHECK_INTERVAL), settings.get(StashConfigKeys.MAX_LIST_ENTRIES),
                settings.get(StashConfigKeys.MAX_BATCH_BYTES), settings.get(StashConfigKeys.MAX_QUEUED_BYTES),
                settings.get(StashConfigKeys.PARTITIONS), StashStoreOptions.from(settings));
    }

    /** Every option at its default, with the given data directory. */
    public static StashConfig defaults(Path dataDir) {
        return from(Settings.empty()).withDataDir(dataDir);
    }

    public StashConfig withDataDir(Path dir) {
        return new StashConfig(dir, capacityBytes, slotAgeWarning, rpc, slotAgeCheckInterval, maxListEntries,
                maxBatchBytes, maxQueuedBytes, partitions, store);
    }

    public StashConfig withCapacityBytes(long bytes) {
        return new StashConfig(dataDir, bytes, slotAgeWarning, rpc, slotAgeCheckInterval, maxListEntries,
                maxBatchBytes, maxQueuedBytes, partitions, store);
    }

    public StashConfig withPartitions(int count) {
        return new StashConfig(dataDir, capacityBytes, slotAgeWarning, rpc, slotAgeCheckInterval, maxListEntries,
                maxBatchBytes, maxQueuedBytes, count, store);
    }

    public StashConfig withSlotAge(Duration warning, Duration checkInterval) {
        return new StashConfig(dataDir, capacityBytes, warning, rpc, checkInterval, maxListEntries,
                maxBatchBytes, maxQueuedBytes, partitions, store);
    }
}
