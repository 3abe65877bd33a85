package io.shardvault.coordinator.collect;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The orphan collector's settings ({@code collect.*}). */
public final class CollectConfigKeys {
    private CollectConfigKeys() {
    }

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("collect.enabled", true,
            "Whether this coordinator collects orphaned shards and stash entries while its catalog peer leads.");

    public static final ConfigKey<Duration> GRACE = ConfigKey.ofDuration("collect.grace", Duration.ofHours(6),
            Duration.ofMillis(1), Duration.ofDays(365),
            "How long a file's newest shard or stash entry must be unwritten before the collector may fence it: keeps"
                    + " the collector away from writes in progress (safety comes from the catalog's fence, not from"
                    + " this). Keep it well beyond the longest write plus commit retry.");

    public static final ConfigKey<Duration> INTERVAL = ConfigKey.ofDuration("collect.interval", Duration.ofHours(1),
            Duration.ofMillis(10), Duration.ofDays(7),
            "Pause between two passes over every pod's and stash server's listing.");

    public static final ConfigKey<Integer> RATE = ConfigKey.ofInt("collect.rate.filesPerSecond", 100, 1, 1_000_000,
            "Orphaned files collected per second at most (each one deletes a shard on every pod of its vault).");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, GRACE, INTERVAL, RATE);
    }
}
