package io.shardvault.coordinator.data.internal;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Pods that stripe reads go around at once, without waiting for the hedge delay. A hedge finds
 * some chunk late; on a loaded machine every pod is late now and then, and going around each of
 * them in turn read parity and decoded two stripes in three for nothing (issue #18). So a pod
 * counts as slow only when, over the last one or two windows, hedges found it late at least
 * {@link #MIN_LATE} times and at least {@link #RATIO} times as often as the average pod of the
 * vault being read: a failing disk or a pod stuck in GC, not the luck of the draw.
 *
 * <p>Thread-safe; the counts are guarded by {@code this} (a few calls per stripe read).
 */
final class SlowPods {
    static final int MIN_LATE = 3;
    static final int RATIO = 4;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LongSupplier clock;
    private Map<InetSocketAddress, Integer> previous = new HashMap<>();
    private Map<InetSocketAddress, Integer> current = new HashMap<>();
    private long windowStart;

    SlowPods() {
        this(System::nanoTime);
    }

    SlowPods(LongSupplier clock) {
        this.clock = clock;
        this.windowStart = clock.getAsLong();
    }

    /** A hedge found {@code pod}'s chunk late. */
    synchronized void late(InetSocketAddress pod) {
        rotate();
        current.merge(pod, 1, Integer::sum);
    }

    /** Which of {@code pods} (a vault's, in shard order) reads should go around now. */
    synchronized boolean[] slowAmong(List<InetSocketAddress> pods) {
        rotate();
        boolean[] slow = new boolean[pods.size()];
        if (previous.isEmpty() && current.isEmpty()) {
            return slow;
        }
        int[] late = new int[pods.size()];
        long total = 0;
        for (int i = 0; i < late.length; i++) {
            InetSocketAddress pod = pods.get(i);
            late[i] = previous.getOrDefault(pod, 0) + current.getOrDefault(pod, 0);
            total += late[i];
        }
        for (int i = 0; i < late.length; i++) {
            // late / (total / n) >= RATIO, in integers.
            slow[i] = late[i] >= MIN_LATE && (long) late[i] * late.length >= RATIO * total;
        }
        return slow;
    }

    private void rotate() {
        long now = clock.getAsLong();
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS) {
            return;
        }
        // One window passed: the current counts become the previous; two or more: both are stale.
        previous = elapsed < 2 * WINDOW_NANOS ? current : new HashMap<>();
        current = new HashMap<>();
        windowStart = now;
    }
}
