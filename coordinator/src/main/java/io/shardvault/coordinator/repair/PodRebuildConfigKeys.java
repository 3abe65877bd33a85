package io.shardvault.coordinator.repair;

import io.shardvault.common.config.ConfigKey;
import java.time.Duration;
import java.util.List;

/** The pod rebuild's settings ({@code repair.rebuild.*}). */
public final class PodRebuildConfigKeys {
    private PodRebuildConfigKeys() {
    }

    public static final ConfigKey<Long> RATE = ConfigKey.ofBytes("repair.rebuild.bytesPerSecond", 64L << 20, 1L << 16,
            1L << 40, "Rebuilt shard bytes a pod rebuild writes per second at most (the throttle; 50 MB/s is"
                    + " 52428800).");

    public static final ConfigKey<Duration> INTERVAL = ConfigKey.ofDuration("repair.rebuild.interval",
            Duration.ofSeconds(5), Duration.ofMillis(10), Duration.ofHours(1),
            "How often the leading coordinator looks for a running pod rebuild to run or resume.");

    public static final ConfigKey<Integer> CHECKPOINT_FILES = ConfigKey.ofInt("repair.rebuild.checkpoint.files", 500,
            1, 1_000_000, "A running pod rebuild checkpoints its position in the catalog after this many files at"
                    + " most; a resumed job checks this many of its first files' shards for a complete tail.");

    public static final ConfigKey<Duration> CHECKPOINT_INTERVAL = ConfigKey.ofDuration(
            "repair.rebuild.checkpoint.interval", Duration.ofSeconds(10), Duration.ofMillis(1), Duration.ofHours(1),
            "A running pod rebuild checkpoints its position in the catalog at least this often.");

    public static final ConfigKey<Integer> CONCURRENCY = ConfigKey.ofInt("repair.rebuild.concurrency", 8, 1, 256,
            "Shards a pod rebuild rebuilds at once: each waits on reads from the other pods and on a durable write,"
                    + " so one at a time leaves the rebuild far below its throttle.");

    public static final ConfigKey<Duration> CATCH_UP_DELAY = ConfigKey.ofDuration("repair.rebuild.catchUpDelay",
            Duration.ofMinutes(1), Duration.ZERO, Duration.ofDays(1),
            "How long after a decommission's DONE (the map's switch to the replacement) the leading coordinator"
                    + " starts the catch-up rebuild onto the replacement, for the shards written to the old pod"
                    + " meanwhile: long enough for every coordinator to follow the switch"
                    + " (coordinator.podStates.refresh) and finish the writes it had under way.");

    public static final ConfigKey<Duration> GATHER_DELAY = ConfigKey.ofDuration("repair.rebuild.gatherDelay",
            Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1),
            "How long a new pod rebuild or decommission waits for others before it runs: the running jobs of a"
                    + " vault run in one walk, decoding the shards of all their pods from one read of each file"
                    + " (the pods of a lost host, one command each), and no new job runs until the newest of them"
                    + " is this old.");

    /** Every key above. */
    public static List<ConfigKey<?>> all() {
        return List.of(RATE, INTERVAL, CHECKPOINT_FILES, CHECKPOINT_INTERVAL, CONCURRENCY, CATCH_UP_DELAY,
                GATHER_DELAY);
    }
}
