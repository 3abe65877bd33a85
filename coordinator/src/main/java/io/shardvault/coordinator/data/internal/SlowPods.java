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
 * {@link #RATIO} times as often as the average pod of the vault being read, and on at least one
 * in {@link #LATE_SHARE} of at least {@link #MIN_WAITED} reads that waited for it: a failing disk
 * or a pod stuck in GC, not the luck of the draw. The share
 * matters when hedges are few: 3 of 14 hedges in a window is 4x a vault's average, and was enough
 * to make every GET of the next 10 s read parity and decode (374 of 400 at 4 clients), though that
 * pod had been late on 3 of some 600 reads. The least number of reads matters when a load starts
 * after a pause: late on 3 of its first 10 reads, a pod was gone around, so it was waited for no
 * more, its share stayed high, and every stripe of the load decoded (387 of 400 GETs, 10 hedges).
 * A failing disk is late on nearly every read: it is gone around after {@code MIN_WAITED} of them.
 *
 * <p>Thread-safe; the counts are guarded by {@code this} (a few calls per stripe read).
 */
final class SlowPods {
    static final int RATIO = 4;
    static final int LATE_SHARE = 5;
    static final int MIN_WAITED = 40;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LongSupplier clock;
    private Window previous = new Window();
    private Window current = new Window();
    private long windowStart;

    SlowPods() {
        this(System::nanoTime);
    }

    SlowPods(LongSupplier clock) {
        this.clock = clock;
        this.windowStart = clock.getAsLong();
    }

    /** A stripe read asked {@code pod} for a chunk it needs and will wait for (the pod not gone around). */
    synchronized void waitedFor(InetSocketAddress pod) {
        rotate();
        current.waited.merge(pod, 1, Integer::sum);
    }

    /** A hedge found {@code pod}'s chunk late. */
    synchronized void late(InetSocketAddress pod) {
        rotate();
        current.late.merge(pod, 1, Integer::sum);
    }

    /** Which of {@code pods} (a vault's, in shard order) reads should go around now. */
    synchronized boolean[] slowAmong(List<InetSocketAddress> pods) {
        rotate();
        boolean[] slow = new boolean[pods.size()];
        if (previous.late.isEmpty() && current.late.isEmpty()) {
            return slow;
        }
        int[] late = new int[pods.size()];
        long total = 0;
        for (int i = 0; i < late.length; i++) {
            late[i] = previous.late(pods.get(i)) + current.late(pods.get(i));
            total += late[i];
        }
        for (int i = 0; i < late.length; i++) {
            long waited = previous.waited(pods.get(i)) + current.waited(pods.get(i));
            // late / (total / n) >= RATIO and late / waited >= 1 / LATE_SHARE, in integers.
            slow[i] = (long) late[i] * late.length >= RATIO * total
                    && waited >= MIN_WAITED && (long) late[i] * LATE_SHARE >= waited;
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
        previous = elapsed < 2 * WINDOW_NANOS ? current : new Window();
        current = new Window();
        windowStart = now;
    }

    /** One window's counts per pod. */
    private static final class Window {
        final Map<InetSocketAddress, Integer> waited = new HashMap<>();
        final Map<InetSocketAddress, Integer> late = new HashMap<>();

        int waited(InetSocketAddress pod) {
            return waited.getOrDefault(pod, 0);
        }

        int late(InetSocketAddress pod) {
            return late.getOrDefault(pod, 0);
        }
    }
}
