package io.shardvault.coordinator.data;

import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureStripes;

import java.time.Duration;
import java.util.Objects;

/**
 * The resolved settings of the data paths; see {@link DataPathConfigKeys} for each.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>stashThreshold</td><td>1 MiB</td></tr>
 *   <tr><td>writeQuorum</td><td>0 = n-1</td></tr>
 *   <tr><td>rpcTimeout</td><td>10 s</td></tr>
 *   <tr><td>maxInFlightStripes</td><td>4 per upload (in bytes of vault stripes for a large file, at
 *       least 2 of its stripes)</td></tr>
 *   <tr><td>largeFileChunkBytes</td><td>256 KiB (0 = the vault's chunk)</td></tr>
 *   <tr><td>stragglerGrace</td><td>200 ms</td></tr>
 *   <tr><td>readAheadStripes</td><td>2 (in bytes of vault stripes for a large file, at least 1 of its
 *       stripes)</td></tr>
 *   <tr><td>hedgeMin / hedgeMax</td><td>20 ms / 2 s</td></tr>
 *   <tr><td>stashBackoff</td><td>10 s</td></tr>
 *   <tr><td>deleteAttempts / deleteRetryMin</td><td>20 / 100 ms</td></tr>
 *   <tr><td>bufferPoolBytes</td><td>64 MiB</td></tr>
 * </table>
 */
public record DataPathConfig(long stashThreshold, int writeQuorum, Duration rpcTimeout, int maxInFlightStripes,
                             int largeFileChunkBytes, Duration stragglerGrace, int readAheadStripes,
                             Duration hedgeMin, Duration hedgeMax, Duration stashBackoff, int deleteAttempts,
                             Duration deleteRetryMin, long bufferPoolBytes) {

    public DataPathConfig {
        Objects.requireNonNull(rpcTimeout, "rpcTimeout");
        Objects.requireNonNull(stragglerGrace, "stragglerGrace");
        Objects.requireNonNull(hedgeMin, "hedgeMin");
        Objects.requireNonNull(hedgeMax, "hedgeMax");
        Objects.requireNonNull(stashBackoff, "stashBackoff");
        Objects.requireNonNull(deleteRetryMin, "deleteRetryMin");
        if (hedgeMax.compareTo(hedgeMin) < 0) {
            throw new IllegalArgumentException("hedgeMax " + hedgeMax + " is below hedgeMin " + hedgeMin);
        }
        if (largeFileChunkBytes < 0 || largeFileChunkBytes % ErasureStripes.CHUNK_ALIGNMENT != 0) {
            throw new IllegalArgumentException(DataPathConfigKeys.LARGE_FILE_CHUNK_BYTES.name() + " must be 0 or a"
                    + " positive multiple of " + ErasureStripes.CHUNK_ALIGNMENT + ": " + largeFileChunkBytes);
        }
    }

    public static DataPathConfig from(Settings s) {
        return new DataPathConfig(s.get(DataPathConfigKeys.STASH_THRESHOLD), s.get(DataPathConfigKeys.WRITE_QUORUM),
                s.get(DataPathConfigKeys.RPC_TIMEOUT), s.get(DataPathConfigKeys.MAX_IN_FLIGHT_STRIPES),
                Math.toIntExact(s.get(DataPathConfigKeys.LARGE_FILE_CHUNK_BYTES)),
                s.get(DataPathConfigKeys.STRAGGLER_GRACE), s.get(DataPathConfigKeys.READ_AHEAD_STRIPES),
                s.get(DataPathConfigKeys.HEDGE_MIN), s.get(DataPathConfigKeys.HEDGE_MAX),
                s.get(DataPathConfigKeys.STASH_BACKOFF), s.get(DataPathConfigKeys.DELETE_ATTEMPTS),
                s.get(DataPathConfigKeys.DELETE_RETRY_MIN), s.get(DataPathConfigKeys.BUFFER_POOL_BYTES));
    }

    public static DataPathConfig defaults() {
        return from(Settings.empty());
    }

    /** The write quorum for a vault of this layout: the configured one, or n-1; checked against k. */
    public int writeQuorum(VaultLayout layout) {
        int q = writeQuorum == 0 ? layout.n() - 1 : writeQuorum;
        if (q < layout.k() || q > layout.n()) {
            throw new IllegalArgumentException("write quorum " + q + " outside [k=" + layout.k() + ", n="
                    + layout.n() + "] for layout " + layout);
        }
        return q;
    }

    /**
     * The layout large files are cut with in a vault of layout {@code vault}: its erasure layout with
     * chunks of {@code largeFileChunkBytes}, or {@code vault} itself when the setting is 0 or the
     * vault's chunk. Checked once at startup, so a write never finds it invalid.
     *
     * @throws IllegalArgumentException naming the setting, if it is below the vault's chunk or its
     *                                  stripe does not fit in an int
     */
    public VaultLayout largeFileLayout(VaultLayout vault) {
        if (largeFileChunkBytes == 0 || largeFileChunkBytes == vault.chunkBytes()) {
            return vault;
        }
        String key = DataPathConfigKeys.LARGE_FILE_CHUNK_BYTES.name();
        if (largeFileChunkBytes < vault.chunkBytes()) {
            throw new IllegalArgumentException(key + " " + largeFileChunkBytes + " is below the chunk of vault layout "
                    + vault + "; it must be 0 or at least " + vault.chunkBytes());
        }
        try {
            return new VaultLayout(vault.erasure(), largeFileChunkBytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " " + largeFileChunkBytes + " does not fit vault layout "
                    + vault + ": " + e.getMessage(), e);
        }
    }

    /**
     * The layout a new file of {@code size} bytes (-1: not known yet) is cut with in a vault of
     * layout {@code vault}: {@link #largeFileLayout} when it is larger than one of the vault's
     * stripes, else the vault's. A body of unknown length keeps the vault's: whether it is small is
     * known only once its first stripe is cut.
     */
    public VaultLayout fileLayout(VaultLayout vault, long size) {
        return size > vault.stripeBytes() ? largeFileLayout(vault) : vault;
    }

    /**
     * Stripes of a file of layout {@code file} that one upload keeps in flight: {@code maxInFlightStripes},
     * or for stripes larger than the vault's as many as fit in the bytes of that many vault stripes,
     * but at least 2 (one at the pods while the next fills) and never more than the setting.
     */
    public int writeWindowStripes(VaultLayout vault, VaultLayout file) {
        return window(maxInFlightStripes, 2, vault, file);
    }

    /** Stripes a reader of a file of layout {@code file} keeps ahead: as {@link #writeWindowStripes}, at least 1. */
    public int readWindowStripes(VaultLayout vault, VaultLayout file) {
        return window(readAheadStripes, 1, vault, file);
    }

    private static int window(int stripes, int floor, VaultLayout vault, VaultLayout file) {
        if (file.stripeBytes() <= vault.stripeBytes()) {
            return stripes;
        }
        long fit = (long) stripes * vault.stripeBytes() / file.stripeBytes();
        return (int) Math.min(stripes, Math.max(floor, fit));
    }

    public DataPathConfig withLargeFileChunkBytes(int bytes) {
        return new DataPathConfig(stashThreshold, writeQuorum, rpcTimeout, maxInFlightStripes, bytes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin,
                bufferPoolBytes);
    }

    public DataPathConfig withStashThreshold(long bytes) {
        return new DataPathConfig(bytes, writeQuorum, rpcTimeout, maxInFlightStripes,
                largeFileChunkBytes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin, bufferPoolBytes);
    }

    public DataPathConfig withRpcTimeout(Duration timeout) {
        return new DataPathConfig(stashThreshold, writeQuorum, timeout, maxInFlightStripes,
                largeFileChunkBytes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin, bufferPoolBytes);
    }

    public DataPathConfig withStragglerGrace(Duration grace) {
        return new DataPathConfig(stashThreshold, writeQuorum, rpcTimeout, maxInFlightStripes,
                largeFileChunkBytes, grace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin, bufferPoolBytes);
    }

    public DataPathConfig withDeleteRetry(int attempts, Duration retryMin) {
        return new DataPathConfig(stashThreshold, writeQuorum, rpcTimeout, maxInFlightStripes,
                largeFileChunkBytes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, attempts, retryMin, bufferPoolBytes);
    }
}
