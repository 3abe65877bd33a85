package io.shardvault.coordinator.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * When a lifecycle action falls due, as S3 counts it: the number of days is added to the start (a version's
 * creation, the time it became noncurrent, an upload's initiation) and the result rounded up to the next
 * midnight UTC.
 */
final class ExpiryDates {
    private ExpiryDates() {
    }

    /** The instant {@code days} after {@code start}, rounded up to midnight UTC. */
    static Instant due(Instant start, int days) {
        Instant t = start.plus(Duration.ofDays(days));
        Instant midnight = t.truncatedTo(ChronoUnit.DAYS);
        return midnight.equals(t) ? t : midnight.plus(Duration.ofDays(1));
    }

    /** Whether an action of {@code days} from {@code start} is due at {@code now}. */
    static boolean isDue(Instant start, int days, Instant now) {
        return !now.isBefore(due(start, days));
    }
}
