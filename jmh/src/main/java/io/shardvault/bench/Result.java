package io.shardvault.bench;

/**
 * One row of a bench report: a scenario, an operation, an object size and a client count, with its latency
 * summary and rates. {@code objectsPerSecond} and {@code megabytesPerSecond} are over wall time of the whole
 * step (0 when not meaningful). Immutable.
 */
public record Result(String label, String scenario, String op, long sizeBytes, int clients, LatencyStats latency,
                     double objectsPerSecond, double megabytesPerSecond, double totalSeconds) {

    /** A short key naming the configuration, e.g. {@code PUT 256KiB x32}. */
    public String key() {
        return op + " " + Sizes.format(sizeBytes) + " x" + clients;
    }
}
