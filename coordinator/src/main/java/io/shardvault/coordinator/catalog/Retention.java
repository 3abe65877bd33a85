package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/** An Object Lock retention on one version: its mode and the instant it ends. */
public record Retention(RetentionMode mode, Instant retainUntil) {
    public Retention {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(retainUntil, "retainUntil");
    }

    /** Whether this retention still holds at {@code now}. */
    public boolean activeAt(Instant now) {
        return retainUntil.isAfter(now);
    }
}
