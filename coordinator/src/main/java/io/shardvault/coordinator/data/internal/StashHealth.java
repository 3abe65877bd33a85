package io.shardvault.coordinator.data.internal;

import io.shardvault.stash.api.StashPlacement;

import java.time.Duration;

/**
 * Whether small writes should use the stash: there is one, and it has not failed a write (full,
 * unreachable, slow) within the last backoff period. Thread-safe.
 */
final class StashHealth {
    private final StashPlacement placement;
    private final long backoffNanos;
    private volatile long downUntilNanos;
    private volatile boolean everDown;

    StashHealth(StashPlacement placement, Duration backoff) {
        this.placement = placement;
        this.backoffNanos = backoff.toNanos();
    }

    boolean usable() {
        return placement != null && (!everDown || System.nanoTime() - downUntilNanos >= 0);
    }

    /** Whether there is a stash at all (a cluster without one writes everything durably, by design). */
    boolean configured() {
        return placement != null;
    }

    void markDown() {
        downUntilNanos = System.nanoTime() + backoffNanos;
        everDown = true;
    }
}
