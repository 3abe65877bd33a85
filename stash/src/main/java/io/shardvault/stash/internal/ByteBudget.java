package io.shardvault.stash.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The stash's byte budget, shared by the committers of every partition: the bytes stored plus the
 * bytes admitted into batches that are not yet written never exceed the capacity, however many
 * committers admit PUTs at once.
 *
 * <p>A committer {@linkplain #tryTake takes} what a PUT adds before writing it, and {@linkplain #give
 * gives back} what a write freed (purges, smaller replacements) only after the write returned, or
 * what it took when the write failed. So the count is never below what the store holds, and never
 * above the capacity.
 *
 * <p>Thread-safe, lock-free.
 */
public final class ByteBudget {
    private final long capacityBytes;
    private final AtomicLong usedBytes;

    /**
     * @param capacityBytes the most chunk bytes the stash may hold
     * @param storedBytes what the store holds now (counted at open)
     */
    public ByteBudget(long capacityBytes, long storedBytes) {
        if (capacityBytes < 0 || storedBytes < 0) {
            throw new IllegalArgumentException("capacityBytes and storedBytes must be >= 0: " + capacityBytes + ", "
                    + storedBytes);
        }
        this.capacityBytes = capacityBytes;
        this.usedBytes = new AtomicLong(storedBytes);
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Stored bytes plus bytes admitted and not yet written. */
    public long usedBytes() {
        return usedBytes.get();
    }

    /** Admits {@code bytes} more when they fit under the capacity; false (and nothing taken) when not. */
    public boolean tryTake(long bytes) {
        checkNotNegative(bytes);
        while (true) {
            long used = usedBytes.get();
            if (used + bytes > capacityBytes) {
                return false;
            }
            if (usedBytes.compareAndSet(used, used + bytes)) {
                return true;
            }
        }
    }

    /** Returns bytes that were freed, or taken and not written. */
    public void give(long bytes) {
        checkNotNegative(bytes);
        usedBytes.addAndGet(-bytes);
    }

    private static void checkNotNegative(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
    }
}
