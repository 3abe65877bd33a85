package io.shardvault.coordinator.lifecycle;

import io.shardvault.common.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * The lifecycle expirer's resolved settings (see {@link LifecycleConfigKeys}). Immutable.
 *
 * @param enabled whether this coordinator applies rules while its catalog peer leads
 * @param interval pause between two runs
 * @param deletesPerSecond removals per second at most
 * @param batch deletes per catalog entry
 */
public record LifecycleConfig(boolean enabled, Duration interval, int deletesPerSecond, int batch) {
    public LifecycleConfig {
        if (deletesPerSecond < 1) {
            throw new IllegalArgumentException("lifecycle.rate.deletesPerSecond must be >= 1: " + deletesPerSecond);
        }
        if (batch < 1 || batch > 1000) {
            throw new IllegalArgumentException("lifecycle.batch must be in [1, 1000]: " + batch);
        }
    }

    public static LifecycleConfig from(Settings settings) {
        return new LifecycleConfig(settings.get(LifecycleConfigKeys.ENABLED), settings.get(LifecycleConfigKeys.INTERVAL),
                settings.get(LifecycleConfigKeys.RATE), settings.get(LifecycleConfigKeys.BATCH));
    }

    public static LifecycleConfig defaults() {
        return from(Settings.of(Map.of()));
    }
}
