package io.shardvault.bench;

/**
 * One row of a bench report: a scenario, an operation, an object size and a client count, with its latency
 * distribution and rates. {@code objectsPerSecond} and {@code megabytesPerSecond} are over wall time of the
 * whole step (0 when not meaningful). Immutable.
 */
public record Result(String label, String scenario, String op, long sizeBytes, int clients, LatencyStats latency,
                     double objectsPerSecond, double megabytesPerSecond, double totalSeconds) {

    /** A short key naming the configuration, e.g. {@code PUT 256KiB x32}. */
    public String key() {
        return op + " " + Sizes.format(sizeBytes) + " x" + clients;
    }

    /** Whether {@code other} measured the same configuration (label, scenario, op, size, clients). */
    boolean sameConfiguration(Result other) {
        return label.equals(other.label) && scenario.equals(other.scenario) && op.equals(other.op)
                && sizeBytes == other.sizeBytes && clients == other.clients;
    }

    /**
     * This run and {@code other} (the same configuration) as one: the union of their latencies, their time
     * added up, and rates over the total time (each run's rate weighted by its time).
     */
    Result merge(Result other) {
        if (!sameConfiguration(other)) {
            throw new IllegalArgumentException("cannot merge " + label + " " + scenario + " " + key() + " with "
                    + other.label + " " + other.scenario + " " + other.key());
        }
        double secs = totalSeconds + other.totalSeconds;
        return new Result(label, scenario, op, sizeBytes, clients, latency.merge(other.latency),
                weighted(objectsPerSecond, other.objectsPerSecond, other.totalSeconds, secs),
                weighted(megabytesPerSecond, other.megabytesPerSecond, other.totalSeconds, secs), secs);
    }

    private double weighted(double mine, double theirs, double theirSeconds, double totalSecs) {
        return totalSecs == 0 ? 0 : (mine * totalSeconds + theirs * theirSeconds) / totalSecs;
    }
}
