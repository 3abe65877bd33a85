package io.shardvault.pod.internal;

import io.shardvault.common.DaemonThreads;
import io.shardvault.common.os.ThreadPriority;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that runs the {@link Scrubber}s of a process's pod instances, in turn: a host of
 * twenty instances scrubs with one thread, not twenty. Each scrubber is paced to its own rate
 * ({@code pod.scrub.bytesPerSecond}): after a step that read {@code b} bytes its next step is due
 * {@code b / rate} later, and the lane always runs the scrubber due first. A step reads at most one
 * chunk, so no instance waits long behind another. The rates are ceilings: together they are also
 * bounded by what one thread reads.
 *
 * <p>The thread runs at a lower CPU and I/O priority ({@code pod.scrub.nice}; {@link ThreadPriority}):
 * scrubbing at the same priority as the request threads raised a PUT's p50 by 10-13 % on a loaded host
 * (issue #20, where the goal is at most 10 %); at a lower one it takes what requests leave. Where the
 * priority cannot be lowered (no native shim) it says so once and scrubs all the same.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>an idle scrubber (between passes, findings full) is asked again after</td><td>1 s</td></tr>
 *   <tr><td>a scrubber whose step failed (an unreadable directory) is asked again after</td><td>10 s</td></tr>
 * </table>
 *
 * <p>Thread-safe. {@link #remove} returns once the lane no longer steps that scrubber; {@link #close}
 * stops the thread.
 */
public final class ScrubLane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubLane.class);
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long FAILED_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicInteger LANES = new AtomicInteger();

    private static final class Entry {
        final Scrubber scrubber;
        long dueNanos;

        Entry(Scrubber scrubber, long dueNanos) {
            this.scrubber = scrubber;
            this.dueNanos = dueNanos;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Thread thread;
    private final int nice;
    private Entry stepping;
    private boolean closed;

    private ScrubLane(int nice) {
        if (nice < 0 || nice > ThreadPriority.MAX_NICE) {
            throw new IllegalArgumentException("pod.scrub.nice must be in 0.." + ThreadPriority.MAX_NICE + ": " + nice);
        }
        this.nice = nice;
        this.thread = DaemonThreads.named("scrub-lane-" + LANES.incrementAndGet()).newThread(this::run);
    }

    /** Starts a lane with no scrubber yet, its thread at nice value {@code nice} (0: as the process). */
    public static ScrubLane start(int nice) {
        ScrubLane lane = new ScrubLane(nice);
        lane.thread.start();
        return lane;
    }

    /** The lane's thread's name, as /proc/self/task/TID/comm shows it (for tests). */
    String threadName() {
        return thread.getName();
    }

    /** Runs {@code scrubber} from now on, unless its rate is 0 (scrubbing off). */
    public synchronized void add(Scrubber scrubber) {
        if (scrubber.bytesPerSecond() == 0) {
            LOG.info("pod {}: scrubbing is off (pod.scrub.bytesPerSecond = 0)", scrubber.podName());
            return;
        }
        entries.add(new Entry(scrubber, System.nanoTime()));
        notifyAll();
    }

    /** Stops running {@code scrubber}; returns once no step of it is under way. */
    public synchronized void remove(Scrubber scrubber) {
        entries.removeIf(e -> e.scrubber == scrubber);
        boolean interrupted = false;
        while (stepping != null && stepping.scrubber == scrubber) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        lowerPriority();
        while (true) {
            Entry next;
            synchronized (this) {
                next = null;
                while (!closed) {
                    next = null;
                    for (Entry e : entries) {
                        if (next == null || e.dueNanos - next.dueNanos < 0) {
                            next = e;
                        }
                    }
                    long wait = next == null ? Long.MAX_VALUE : next.dueNanos - System.nanoTime();
                    if (wait <= 0) {
                        break;
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(this, Math.min(wait, IDLE_NANOS));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                stepping = next;
            }
            long after = step(next);
            synchronized (this) {
                next.dueNanos = Math.max(next.dueNanos, System.nanoTime()) + after;
                stepping = null;
                notifyAll();
            }
        }
    }

    private void lowerPriority() {
        if (nice == 0) {
            LOG.info("{}: scrubs at the process's priority (pod.scrub.nice = 0)", thread.getName());
            return;
        }
        try {
            ThreadPriority.lowerCurrentThread(nice);
            LOG.info("{}: scrubs at nice {} and best-effort I/O level {}", thread.getName(), nice,
                    ThreadPriority.IO_LEVEL_LOWEST);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("{}: could not lower its priority to nice {} and best-effort I/O level {} (pod.scrub.nice), "
                    + "so it may compete with requests: {}", thread.getName(), nice, ThreadPriority.IO_LEVEL_LOWEST,
                    e.getMessage());
        }
    }

    /** Runs one step; the nanoseconds until the scrubber's next one. */
    private static long step(Entry e) {
        try {
            long read = e.scrubber.step();
            if (read == Scrubber.IDLE) {
                return IDLE_NANOS;
            }
            return (long) (read * (1e9 / e.scrubber.bytesPerSecond()));
        } catch (IOException | RuntimeException failure) {
            LOG.warn("pod {}: scrub step failed (retried in {} s): {}", e.scrubber.podName(),
                    TimeUnit.NANOSECONDS.toSeconds(FAILED_NANOS), failure.toString());
            return FAILED_NANOS;
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
