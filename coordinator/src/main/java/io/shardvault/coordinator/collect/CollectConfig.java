package io.shardvault.coordinator.collect;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * The orphan collector's resolved settings (see {@link CollectConfigKeys}). Immutable.
 *
 * @param enabled whether this coordinator collects while its catalog peer leads
 * @param grace how long a file must be unwritten before it may be fenced
 * @param interval pause between two passes
 * @param filesPerSecond files collected per second at most
 */
public record CollectConfig(boolean enabled, Duration grace, Duration interval, int filesPerSecond) {
    public CollectConfig {
        if (filesPerSecond < 1) {
            throw new IllegalArgumentException("collect.rate.filesPerSecond must be >= 1: " + filesPerSecond);
        }
    }

    public static CollectConfig from(Settings settings) {
        return new CollectConfig(settings.get(CollectConfigKeys.ENABLED), settings.get(CollectConfigKeys.GRACE),
                settings.get(CollectConfigKeys.INTERVAL), settings.get(CollectConfigKeys.RATE));
    }

    public static CollectConfig defaults() {
        return from(Settings.of(Map.of()));
    }

    /** For tests: a grace of {@code grace}, passes every {@code interval}. */
    public CollectConfig withPace(Duration grace, Duration interval) {
        return new CollectConfig(enabled, grace, interval, filesPerSecond);
    }
}
