package io.shardvault.bench;

import java.util.SplittableRandom;

/**
 * The objects of a mixed run that exist and are not in use, by key number. A GET or HEAD borrows a random one
 * and gives it back, a DELETE takes one for good, a PUT adds a fresh number once its upload is done: so no
 * request ever names an object that another request is deleting, and none reads an object not yet written.
 * Thread-safe.
 */
final class KeyPool {
    private long[] free;
    private int size;
    private long nextFresh;

    /** A pool of the keys 0..count-1, all written beforehand. */
    KeyPool(long count) {
        this.free = new long[Math.toIntExact(Math.max(16, count))];
        for (long n = 0; n < count; n++) {
            free[size++] = n;
        }
        this.nextFresh = count;
    }

    /** Removes and returns a random key; the caller gives it back with {@link #add} unless it deleted it. */
    synchronized long take(SplittableRandom random, MixedScenario.Op op) {
        if (size == 0) {
            throw new IllegalStateException("no object left for a " + op + ": every object is deleted or in use;"
                    + " raise --objects or lower DELETE's weight");
        }
        int i = random.nextInt(size);
        long key = free[i];
        free[i] = free[--size];
        return key;
    }

    /** A key number never used before, for a PUT. */
    synchronized long fresh() {
        return nextFresh++;
    }

    synchronized void add(long key) {
        if (size == free.length) {
            free = java.util.Arrays.copyOf(free, size * 2);
        }
        free[size++] = key;
    }

    synchronized int size() {
        return size;
    }
}
