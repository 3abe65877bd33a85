package io.shardvault.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for the services' own executors: daemon threads (a stuck one never keeps a
 * stopping process alive; every owner still shuts its executor down), named for what they run, as
 * thread dumps, profiles and logs show them.
 *
 * <p>Stateless; the factories are thread-safe.
 */
public final class DaemonThreads {
    private DaemonThreads() {
    }

    /** Daemon threads all named {@code name}: for an executor of one thread. */
    public static ThreadFactory named(String name) {
        return r -> daemon(r, name);
    }

    /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ... in the order this factory makes them. */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> daemon(r, prefix + "-" + count.incrementAndGet());
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
