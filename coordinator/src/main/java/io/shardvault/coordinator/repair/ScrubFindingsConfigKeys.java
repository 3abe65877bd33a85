package io.shardvault.coordinator.repair;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The settings of the coordinator's collection of the pods' scrub findings ({@code repair.scrub.*}). */
public final class ScrubFindingsConfigKeys {
    private ScrubFindingsConfigKeys() {
    }

    public static final ConfigKey<Duration> INTERVAL = ConfigKey.ofDuration("repair.scrub.interval",
            Duration.ofSeconds(30), Duration.ofMillis(10), Duration.ofHours(1),
            "Pause between two rounds in which the catalog leader's coordinator takes every pod's scrub findings"
                    + " and queues their repair.");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(INTERVAL);
    }
}
