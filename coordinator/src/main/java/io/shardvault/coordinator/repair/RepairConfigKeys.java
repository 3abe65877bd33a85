package io.shardvault.coordinator.repair;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The repair worker's settings ({@code repair.*}). */
public final class RepairConfigKeys {
    private RepairConfigKeys() {
    }

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("repair.enabled", true,
            "Whether this coordinator repairs queued degraded files while its catalog peer leads (reads still queue"
                    + " damage either way).");

    public static final ConfigKey<Duration> INTERVAL = ConfigKey.ofDuration("repair.interval", Duration.ofSeconds(10),
            Duration.ofMillis(10), Duration.ofHours(1),
            "Pause between two passes over the repair queue (each pass refreshes the degraded-file gauges).");

    public static final ConfigKey<Long> RATE = ConfigKey.ofBytes("repair.rate.bytesPerSecond", 64L << 20, 1L << 16,
            1L << 40, "Repaired shard bytes written per second at most, over all concurrent repairs of this coordinator.");

    public static final ConfigKey<Integer> CONCURRENCY = ConfigKey.ofInt("repair.concurrency", 2, 1, 64,
            "Files repaired at the same time.");

    public static final ConfigKey<Duration> BACKOFF_MIN = ConfigKey.ofDuration("repair.backoff.min",
            Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofHours(1),
            "Wait before retrying a file whose repair failed (a pod still down); doubles per failure up to"
                    + " repair.backoff.max.");

    public static final ConfigKey<Duration> BACKOFF_MAX = ConfigKey.ofDuration("repair.backoff.max",
            Duration.ofMinutes(10), Duration.ofMillis(1), Duration.ofDays(1),
            "The longest wait before retrying a file whose repairs keep failing.");

    public static final ConfigKey<Integer> REPORTS_MAX = ConfigKey.ofInt("repair.reports.max", 1024, 1, 1 << 20,
            "Shards found damaged by reads whose enqueue to the catalog may be in flight at once; beyond it reports"
                    + " are dropped and counted (a scrub or a later read finds them again).");

    public static final ConfigKey<Duration> TAKEOVER_DELAY = ConfigKey.ofDuration("repair.takeoverDelay",
            Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1),
            "How long a coordinator must have led the catalog (in one Raft term) before it repairs shards or runs a"
                    + " pod rebuild: longer than a deposed leader takes to notice it lost the lead, plus one pod"
                    + " call, so the old and the new leader never rewrite the same shard at once.");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, INTERVAL, RATE, CONCURRENCY, BACKOFF_MIN, BACKOFF_MAX, REPORTS_MAX, TAKEOVER_DELAY);
    }
}
