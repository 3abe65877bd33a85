package io.shardvault.coordinator.repair;

import io.shardvault.common.config.Settings;
import java.time.Duration;

/**
 * The repair worker's resolved settings (see {@link RepairConfigKeys}). Immutable.
 *
 * @param enabled whether this coordinator repairs while its catalog peer leads
 * @param interval pause between two passes over the queue
 * @param bytesPerSecond repaired bytes written per second at most
 * @param concurrency files repaired at once
 * @param backoffMin first wait after a failed repair of a file
 * @param backoffMax longest wait after failed repairs
 * @param reportsMax read reports in flight at most
 */
public record RepairConfig(boolean enabled, Duration interval, long bytesPerSecond, int concurrency,
                           Duration backoffMin, Duration backoffMax, int reportsMax) {
    public RepairConfig {
        if (bytesPerSecond < 1 || concurrency < 1 || reportsMax < 1) {
            throw new IllegalArgumentException("rate, concurrency and reportsMax must be >= 1");
        }
        if (backoffMax.compareTo(backoffMin) < 0) {
            throw new IllegalArgumentException("repair.backoff.max " + backoffMax + " < repair.backoff.min "
                    + backoffMin);
        }
    }

    public static RepairConfig from(Settings settings) {
        return new RepairConfig(settings.get(RepairConfigKeys.ENABLED), settings.get(RepairConfigKeys.INTERVAL),
                settings.get(RepairConfigKeys.RATE), settings.get(RepairConfigKeys.CONCURRENCY),
                settings.get(RepairConfigKeys.BACKOFF_MIN), settings.get(RepairConfigKeys.BACKOFF_MAX),
                settings.get(RepairConfigKeys.REPORTS_MAX));
    }

    public static RepairConfig defaults() {
        return from(Settings.of(java.util.Map.of()));
    }

    /** For tests: passes every {@code interval}, retries after {@code backoff}. */
    public RepairConfig withPace(Duration passInterval, Duration backoff) {
        return new RepairConfig(enabled, passInterval, bytesPerSecond, concurrency, backoff, backoff, reportsMax);
    }
}
