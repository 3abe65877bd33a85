package io.shardvault.coordinator.repair;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Paces repaired bytes to a rate: each caller reserves its bytes' share of time and sleeps until its
 * turn, so concurrent repairs share the rate. No burst beyond one call's bytes. Thread-safe.
 */
public final class RateLimiter {
    private final long bytesPerSecond;
    private final LongSupplier nanoTicker;
    private long nextFreeNanos;

    public RateLimiter(long bytesPerSecond, LongSupplier nanoTicker) {
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 1: " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.nanoTicker = nanoTicker;
        this.nextFreeNanos = nanoTicker.getAsLong();
    }

    /** Waits until {@code bytes} may go; the nanoseconds waited. */
    public long acquire(long bytes) throws InterruptedException {
        long wait;
        synchronized (this) {
            long now = nanoTicker.getAsLong();
            if (nextFreeNanos - now < 0) {
                nextFreeNanos = now;
            }
            wait = nextFreeNanos - now;
            nextFreeNanos += (long) (bytes * (1e9 / bytesPerSecond));
        }
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        return Math.max(0, wait);
    }
}
