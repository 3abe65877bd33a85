package io.shardvault.coordinator.data;

import io.shardvault.common.config.ConfigKey;

import java.time.Duration;
import java.util.List;

/** The settings of the coordinator's data paths (resolved into {@link DataPathConfig}). */
public final class DataPathConfigKeys {
    private DataPathConfigKeys() {
    }

    public static final ConfigKey<Long> STASH_THRESHOLD = ConfigKey.ofBytes("stash.threshold", 1L << 20, 0,
            1L << 30, "Files up to this size go to buffered pods plus the stash when the stash is healthy;"
                    + " larger ones to durable pods. Must fit in one stripe.");
    public static final ConfigKey<Integer> WRITE_QUORUM = ConfigKey.ofInt("data.write.quorum", 0, 0, 255,
            "Pod acknowledgements (and, in stash mode, stash syncs) a write needs; 0 means n-1."
                    + " Must be at least k.");
    public static final ConfigKey<Duration> RPC_TIMEOUT = ConfigKey.ofDuration("data.rpc.timeout",
            Duration.ofSeconds(10), Duration.ofMillis(10), Duration.ofMinutes(10),
            "Timeout of each chunk write, read and delete sent to a pod or stash server.");
    public static final ConfigKey<Integer> MAX_IN_FLIGHT_STRIPES = ConfigKey.ofInt("data.write.maxInFlightStripes", 4,
            1, 1024, "Stripes of one upload sent but not yet answered by every pod; the upload waits beyond this.");
    public static final ConfigKey<Long> LARGE_FILE_CHUNK_BYTES = ConfigKey.ofBytes("data.write.largeFileChunkBytes",
            256L << 10, 0, 16L << 20, "Chunk size of files larger than one stripe of their vault's layout (a 16+4"
                    + " stripe of 256 KiB chunks is 4 MiB): fewer, larger chunk writes per MiB. A positive multiple of"
                    + " 16, at least the vault's chunk; 0 or the vault's chunk keeps the vault's layout. Small files"
                    + " and bodies of unknown length keep the vault's layout. An upload of such a file keeps as many"
                    + " stripes in flight as fit in the bytes of data.write.maxInFlightStripes vault stripes, but"
                    + " at least 2 (one at the pods while the next fills); a reader reads ahead likewise within"
                    + " data.read.aheadStripes vault stripes, at least 1.");
    public static final ConfigKey<Duration> STRAGGLER_GRACE = ConfigKey.ofDuration("data.write.stragglerGrace",
            Duration.ofMillis(200), Duration.ZERO, Duration.ofMinutes(1),
            "Once a write has its quorum, how long it still waits for the other pods before recording them missing.");
    public static final ConfigKey<Integer> READ_AHEAD_STRIPES = ConfigKey.ofInt("data.read.aheadStripes", 2, 1, 64,
            "Stripes a reader fetches ahead of its consumer.");
    public static final ConfigKey<Duration> HEDGE_MIN = ConfigKey.ofDuration("data.read.hedge.min",
            Duration.ofMillis(20), Duration.ZERO, Duration.ofMinutes(1),
            "Shortest wait before a slow chunk read is hedged with parity or stash reads.");
    public static final ConfigKey<Duration> HEDGE_MAX = ConfigKey.ofDuration("data.read.hedge.max",
            Duration.ofSeconds(2), Duration.ZERO, Duration.ofMinutes(10),
            "Longest wait before a slow chunk read is hedged, whatever the observed latency.");
    public static final ConfigKey<Duration> STASH_BACKOFF = ConfigKey.ofDuration("data.stash.backoff",
            Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1),
            "After the stash failed a write (full, unreachable), how long small writes go to durable pods instead.");
    public static final ConfigKey<Integer> DELETE_ATTEMPTS = ConfigKey.ofInt("data.delete.attempts", 20, 1, 1_000_000,
            "Attempts to delete one shard before a deletion is reported failed (it is retried later from the catalog).");
    public static final ConfigKey<Duration> DELETE_RETRY_MIN = ConfigKey.ofDuration("data.delete.retry.min",
            Duration.ofMillis(100), Duration.ofMillis(1), Duration.ofMinutes(10),
            "First delay between delete attempts; it doubles up to 30 s.");

    public static final ConfigKey<Long> BUFFER_POOL_BYTES = ConfigKey.ofBytes("data.buffers.poolBytes", 64L << 20, 0,
            1L << 40, "Free stripe buffers (aligned direct memory for encoding and decoding) kept for reuse;"
                    + " 0 allocates every buffer afresh.");

    public static List<ConfigKey<?>> all() {
        return List.of(STASH_THRESHOLD, WRITE_QUORUM, RPC_TIMEOUT, MAX_IN_FLIGHT_STRIPES, LARGE_FILE_CHUNK_BYTES,
                STRAGGLER_GRACE, READ_AHEAD_STRIPES, HEDGE_MIN, HEDGE_MAX, STASH_BACKOFF, DELETE_ATTEMPTS,
                DELETE_RETRY_MIN, BUFFER_POOL_BYTES);
    }
}
