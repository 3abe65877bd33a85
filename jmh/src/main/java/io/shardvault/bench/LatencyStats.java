package io.shardvault.bench;

import java.util.Arrays;

/**
 * Summary of a set of latency samples (nanoseconds): mean and nearest-rank percentiles.
 * Immutable and thread-safe.
 */
public record LatencyStats(long count, double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs,
                           double[] curveMs) {

    /** Percentiles (0-100) at which {@link #curveMs()} is sampled, for the percentile charts. */
    public static final double[] CURVE_PERCENTILES = {
        1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 99.5, 99.9, 100};

    public static LatencyStats of(long[] nanos) {
        if (nanos.length == 0) {
            return new LatencyStats(0, 0, 0, 0, 0, 0, new double[CURVE_PERCENTILES.length]);
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        double[] curve = new double[CURVE_PERCENTILES.length];
        for (int i = 0; i < curve.length; i++) {
            curve[i] = percentileMs(sorted, CURVE_PERCENTILES[i]);
        }
        return new LatencyStats(sorted.length, sum / sorted.length / 1e6, percentileMs(sorted, 50),
                percentileMs(sorted, 90), percentileMs(sorted, 99), sorted[sorted.length - 1] / 1e6, curve);
    }

    /** Nearest-rank percentile: the smallest sample with at least p% of samples at or below it. */
    static double percentileMs(long[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }
}
