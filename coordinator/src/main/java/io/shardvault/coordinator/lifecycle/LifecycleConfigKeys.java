package io.shardvault.coordinator.lifecycle;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The lifecycle expirer's settings ({@code lifecycle.*}). */
public final class LifecycleConfigKeys {
    private LifecycleConfigKeys() {
    }

    public static final ConfigKey<Boolean> ENABLED = ConfigKey.ofBoolean("lifecycle.enabled", true,
            "Whether this coordinator applies the buckets' lifecycle rules while its catalog peer leads.");

    public static final ConfigKey<Duration> INTERVAL = ConfigKey.ofDuration("lifecycle.interval", Duration.ofHours(1),
            Duration.ofMillis(10), Duration.ofDays(7),
            "Pause between two runs over every bucket with a lifecycle configuration (rules are in whole days, so"
                    + " an hour only delays an expiry by up to an hour).");

    public static final ConfigKey<Integer> RATE = ConfigKey.ofInt("lifecycle.rate.deletesPerSecond", 200, 1,
            1_000_000, "Versions, delete markers and uploads the expirer removes per second at most, so that a rule"
                    + " that suddenly covers millions of objects does not crowd out the S3 traffic.");

    public static final ConfigKey<Integer> BATCH = ConfigKey.ofInt("lifecycle.batch", 100, 1, 1000,
            "Deletes the expirer sends to the catalog in one Raft entry.");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(ENABLED, INTERVAL, RATE, BATCH);
    }
}
