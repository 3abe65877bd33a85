package io.shardvault.coordinator.repair;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * The pod rebuild's resolved settings (see {@link PodRebuildConfigKeys}). Immutable.
 *
 * @param bytesPerSecond rebuilt shard bytes written per second at most
 * @param interval how often the leader looks for a running job
 * @param checkpointFiles files between two checkpoints at most
 * @param checkpointInterval time between two checkpoints at most
 * @param concurrency shards rebuilt at once
 * @param catchUpDelay time from a decommission's DONE to the start of its catch-up rebuild
 * @param gatherDelay how long a new job waits for others to run with it
 */
public record PodRebuildConfig(long bytesPerSecond, Duration interval, int checkpointFiles,
                               Duration checkpointInterval, int concurrency, Duration catchUpDelay,
                               Duration gatherDelay) {
    public PodRebuildConfig {
        if (bytesPerSecond < 1 || checkpointFiles < 1 || concurrency < 1) {
            throw new IllegalArgumentException("rate, checkpoint files and concurrency must be >= 1");
        }
    }

    public static PodRebuildConfig from(Settings settings) {
        return new PodRebuildConfig(settings.get(PodRebuildConfigKeys.RATE), settings.get(PodRebuildConfigKeys.INTERVAL),
                settings.get(PodRebuildConfigKeys.CHECKPOINT_FILES),
                settings.get(PodRebuildConfigKeys.CHECKPOINT_INTERVAL), settings.get(PodRebuildConfigKeys.CONCURRENCY),
                settings.get(PodRebuildConfigKeys.CATCH_UP_DELAY), settings.get(PodRebuildConfigKeys.GATHER_DELAY));
    }

    public static PodRebuildConfig defaults() {
        return from(Settings.of(Map.of()));
    }
}
