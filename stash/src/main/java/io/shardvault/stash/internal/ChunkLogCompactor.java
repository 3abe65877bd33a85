package io.shardvault.stash.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the partitions' chunk logs in the background: every sealed segment older than
 * {@code compactAfter} with less than a quarter of its bytes alive has its live entries copied to
 * the active segment and is then deleted (see {@link RocksShardStore#compact}), at most
 * {@code bytesPerSecond} copied per second. Without it, a few entries a pod never purges would pin
 * whole segments.
 *
 * <p>One daemon thread. It is never interrupted: an interrupt during a file operation would close
 * the segment's channel under the writers; {@link #close()} asks it to stop and waits.
 */
public final class ChunkLogCompactor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChunkLogCompactor.class);
    private static final long MAX_CHECK_INTERVAL_MILLIS = 30_000;
    private static final long MIN_CHECK_INTERVAL_MILLIS = 100;

    private final List<RocksShardStore> stores;
    private final Duration compactAfter;
    private final long bytesPerSecond;
    private final Clock clock;
    private final Thread thread;
    private final Object sleeper = new Object();
    /** Segments a compaction left behind (a corrupt entry stays): not tried again. Compactor thread only. */
    private final Set<String> leftBehind = new HashSet<>();
    private volatile boolean closed;

    public ChunkLogCompactor(List<RocksShardStore> stores, Duration compactAfter, long bytesPerSecond, Clock clock) {
        this.stores = List.copyOf(stores);
        this.compactAfter = compactAfter;
        this.bytesPerSecond = bytesPerSecond;
        this.clock = clock;
        this.thread = new Thread(this::loop, "stash-chunklog-compactor");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void loop() {
        long interval = Math.max(MIN_CHECK_INTERVAL_MILLIS, Math.min(MAX_CHECK_INTERVAL_MILLIS,
                compactAfter.toMillis() / 2));
        while (!closed) {
            synchronized (sleeper) {
                try {
                    sleeper.wait(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
            runOnce();
        }
    }

    /** Compacts every due segment of every partition once; returns the bytes copied. */
    long runOnce() {
        long copied = 0;
        long sealedBefore = clock.millis() - compactAfter.toMillis();
        for (RocksShardStore store : stores) {
            for (long segment : store.compactionCandidates(sealedBefore)) {
                if (closed) {
                    return copied;
                }
                String name = store.describe() + "#" + segment;
                if (leftBehind.contains(name)) {
                    continue;
                }
                long start = System.nanoTime();
                long[] sinceStart = new long[1];
                try {
                    long bytes = store.compact(segment, id -> { }, moved -> {
                        sinceStart[0] += moved;
                        throttle(start, sinceStart[0]);
                    });
                    copied += bytes;
                    LOG.info("chunk log {}: segment {} compacted, {} live bytes copied", store.describe(), segment,
                            bytes);
                    if (store.hasSegment(segment)) {
                        leftBehind.add(name);
                        LOG.warn("chunk log {}: segment {} keeps entries compaction could not move (corrupt);"
                                + " it stays until they are purged", store.describe(), segment);
                    }
                } catch (ShardStoreException | RuntimeException e) {
                    LOG.warn("chunk log {}: compacting segment {} failed; retried at the next check", store.describe(),
                            segment, e);
                }
            }
        }
        return copied;
    }

    /** Sleeps until {@code bytes} copied since {@code startNanos} are within the rate, or until closed. */
    private void throttle(long startNanos, long bytes) {
        long due = startNanos + bytes * TimeUnit.SECONDS.toNanos(1) / bytesPerSecond;
        long wait;
        while (!closed && (wait = due - System.nanoTime()) > 0) {
            LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }

    /** Stops the thread after the entry it is moving, and waits for it. */
    @Override
    public void close() {
        closed = true;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
        try {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("chunk log compactor did not stop within a minute");
        }
    }
}
