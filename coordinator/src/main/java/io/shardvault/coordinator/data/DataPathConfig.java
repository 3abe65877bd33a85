package io.shardvault.coordinator.data;

import io.shardvault.common.config.Settings;

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
 *   <tr><td>maxInFlightStripes</td><td>4 per upload</td></tr>
 *   <tr><td>stragglerGrace</td><td>200 ms</td></tr>
 *   <tr><td>readAheadStripes</td><td>2</td></tr>
 *   <tr><td>hedgeMin / hedgeMax</td><td>20 ms / 2 s</td></tr>
 *   <tr><td>stashBackoff</td><td>10 s</td></tr>
 *   <tr><td>deleteAttempts / deleteRetryMin</td><td>20 / 100 ms</td></tr>
 *   <tr><td>bufferPoolBytes</td><td>64 MiB</td></tr>
 * </table>
 */
public record DataPathConfig(long stashThreshold, int writeQuorum, Duration rpcTimeout, int maxInFlightStripes,
                             Duration stragglerGrace, int readAheadStripes, Duration hedgeMin, Duration hedgeMax,
                             Duration stashBackoff, int deleteAttempts, Duration deleteRetryMin,
                             long bufferPoolBytes) {

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
    }

    public static DataPathConfig from(Settings s) {
        return new DataPathConfig(s.get(DataPathConfigKeys.STASH_THRESHOLD), s.get(DataPathConfigKeys.WRITE_QUORUM),
                s.get(DataPathConfigKeys.RPC_TIMEOUT), s.get(DataPathConfigKeys.MAX_IN_FLIGHT_STRIPES),
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

    public DataPathConfig withStashThreshold(long bytes) {
        return new DataPathConfig(bytes, writeQuorum, rpcTimeout, maxInFlightStripes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin,
                bufferPoolBytes);
    }

    public DataPathConfig withRpcTimeout(Duration timeout) {
        return new DataPathConfig(stashThreshold, writeQuorum, timeout, maxInFlightStripes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin,
                bufferPoolBytes);
    }

    public DataPathConfig withStragglerGrace(Duration grace) {
        return new DataPathConfig(stashThreshold, writeQuorum, rpcTimeout, maxInFlightStripes, grace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, deleteAttempts, deleteRetryMin,
                bufferPoolBytes);
    }

    public DataPathConfig withDeleteRetry(int attempts, Duration retryMin) {
        return new DataPathConfig(stashThreshold, writeQuorum, rpcTimeout, maxInFlightStripes, stragglerGrace,
                readAheadStripes, hedgeMin, hedgeMax, stashBackoff, attempts, retryMin,
                bufferPoolBytes);
    }
}
