package io.shardvault.common.os;

import io.shardvault.common.nativelib.OsCalls;
import java.io.IOException;

/**
 * Lowers the calling thread's CPU and I/O priority, for background work that must yield to requests
 * (the pods' scrubber). Linux only, through the {@link OsCalls} shim: setpriority(2) with a
 * thread id sets that thread's nice value alone, and ioprio_set(2) its I/O priority, which the kernel's
 * I/O schedulers (BFQ, and the block layer's cgroup weights) honour; a lower priority needs no privilege.
 *
 * <p>The I/O class is best-effort at its lowest level, not the idle class: an idle-class reader is served
 * only when the disk has nothing else to do, so on a pod whose HDD is never idle a scrub would never
 * finish a pass; at best-effort 7 it still gets a share.
 *
 * <p>Thread-safe (each call acts on the calling thread or reads another's).
 */
public final class ThreadPriority {
    /** Nice values a thread may lower itself to: 0 (as started) to 19 (the least CPU when others want it). */
    public static final int MAX_NICE = 19;
    /** ioprio class best-effort, as Linux numbers it. */
    public static final int IO_CLASS_BEST_EFFORT = 2;
    /** The lowest of the best-effort levels (0 highest, 7 lowest). */
    public static final int IO_LEVEL_LOWEST = 7;

    private static final int IO_CLASS_SHIFT = 13;

    private ThreadPriority() {
    }

    /** A thread's I/O priority: its class (1 real-time, 2 best-effort, 3 idle; 0 none set) and level. */
    public record IoPriority(int ioClass, int level) {
    }

    /** Null when priorities can be changed here, else why not ({@link OsCalls#unavailableBecause()}). */
    public static String unavailableBecause() {
        return OsCalls.unavailableBecause();
    }

    /**
     * Sets the calling thread's nice value to {@code nice} and its I/O priority to best-effort level 7.
     *
     * @throws IllegalArgumentException unless {@code nice} is 1..{@value #MAX_NICE}
     * @throws UnsupportedOperationException where {@link #unavailableBecause()} says why
     * @throws IOException when the kernel refuses (its errno in the message)
     */
    public static void lowerCurrentThread(int nice) throws IOException {
        if (nice < 1 || nice > MAX_NICE) {
            throw new IllegalArgumentException("a lower priority is a nice value of 1.." + MAX_NICE + ", not " + nice);
        }
        String why = unavailableBecause();
        if (why != null) {
            throw new UnsupportedOperationException("thread priorities cannot be changed: " + why);
        }
        int tid = currentTid0();
        int rc = setNice0(tid, nice);
        if (rc != 0) {
            throw new IOException("setpriority(nice " + nice + ") of thread " + tid + " failed: errno " + -rc);
        }
        rc = setIoPriority0(tid, IO_CLASS_BEST_EFFORT, IO_LEVEL_LOWEST);
        if (rc != 0) {
            throw new IOException("ioprio_set(best-effort " + IO_LEVEL_LOWEST + ") of thread " + tid
                    + " failed: errno " + -rc);
        }
    }

    /** The kernel's id of the calling thread (its /proc/self/task entry). */
    public static int currentTid() {
        requireAvailable();
        return currentTid0();
    }

    /** The I/O priority of thread {@code tid} of any process. */
    public static IoPriority ioPriorityOf(int tid) throws IOException {
        requireAvailable();
        int prio = ioPriority0(tid);
        if (prio < 0) {
            throw new IOException("ioprio_get of thread " + tid + " failed: errno " + -prio);
        }
        return new IoPriority(prio >>> IO_CLASS_SHIFT, prio & ((1 << IO_CLASS_SHIFT) - 1));
    }

    private static void requireAvailable() {
        String why = unavailableBecause();
        if (why != null) {
            throw new UnsupportedOperationException("thread priorities cannot be read: " + why);
        }
    }

    private static native int currentTid0();

    private static native int setNice0(int tid, int nice);

    private static native int setIoPriority0(int tid, int ioClass, int level);

    private static native int ioPriority0(int tid);
}
