package io.shardvault.coordinator.data.internal;

import java.time.Duration;
import java.util.Arrays;

/**
 * Recent chunk-read latencies, for the hedge delay: twice the 90th percentile of the last 512
 * samples, clamped to [min, max]. Before 16 samples exist, the delay is min(max, 200 ms). The ring
 * is tiny and sorted on demand: one sort per stripe read is far cheaper than the reads it times.
 *
 * <p>Thread-safe.
 */
final class LatencyTracker {
    private static final int SAMPLES = 512;
    private static final int MIN_SAMPLES = 16;
    private static final long COLD_DELAY_NANOS = Duration.ofMillis(200).toNanos();

    private final long minNanos;
    private final long maxNanos;
    private final long[] ring = new long[SAMPLES];
    private int next;
    private int count;

    LatencyTracker(Duration min, Duration max) {
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
    }

    synchronized void record(long nanos) {
        ring[next] = nanos;
        next = (next + 1) % SAMPLES;
        count = Math.min(count + 1, SAMPLES);
    }

    synchronized long hedgeDelayNanos() {
        if (count < MIN_SAMPLES) {
            return Math.max(minNanos, Math.min(maxNanos, COLD_DELAY_NANOS));
        }
        long[] copy = Arrays.copyOf(ring, count);
        Arrays.sort(copy);
        long p90 = copy[(int) Math.min(count - 1, Math.ceil(count * 0.9) - 1)];
        return Math.max(minNanos, Math.min(maxNanos, 2 * p90));
    }
}
