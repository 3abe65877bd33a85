package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Makes buffered writes durable: every {@code interval} (or sooner when enough bytes are waiting)
 * it takes a batch of pending shards per tome and runs each tome's batch on that tome's sync lane,
 * so tomes flush in parallel. A batch fsyncs each file, then the directories of new files, and only
 * then appends one purge event per fully flushed shard to the durable purge queue (one fsync for
 * the batch). A failed fsync leaves its shard pending for the next round.
 *
 * <p>One thread, owned by this object.
 */
public final class Flusher implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

    private final FlushQueue pending;
    private final ShardStore store;
    /** Null when the pod has no stash: nothing to purge. */
    private final PurgeQueue purgeQueue;
    private final Duration interval;
    private final int batchShards;
    private final PodMetrics metrics;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean flushOnClose = true;

    public Flusher(String name, FlushQueue pending, ShardStore store, PurgeQueue purgeQueue, Duration interval,
                   int batchShards, PodMetrics metrics) {
        this.pending = pending;
        this.store = store;
        this.purgeQueue = purgeQueue;
        this.interval = interval;
        this.batchShards = batchShards;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "flusher-" + name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        boolean backlog = false;
        while (running) {
            try {
                if (!backlog) {
                    pending.awaitWork(interval.toNanos());
                }
                if (!running) {
                    break;
                }
                // A full batch means more is waiting: go again at once rather than sleep an interval.
                backlog = flushOnce();
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.error("flusher round failed", e);
            }
        }
        if (flushOnClose) {
            for (int round = 0; round < 100 && !pending.isEmpty(); round++) {
                flushOnce();
            }
        }
    }

    /** Flushes one batch per tome and waits for all of them; true if some tome's batch was full. */
    boolean flushOnce() {
        Map<Tome, List<FlushQueue.Pending>> batch = pending.takeBatch(batchShards);
        List<CompletableFuture<Void>> running = new ArrayList<>();
        boolean full = false;
        for (Map.Entry<Tome, List<FlushQueue.Pending>> e : batch.entrySet()) {
            full |= e.getValue().size() >= batchShards;
            running.add(CompletableFuture.runAsync(() -> flushTome(e.getKey(), e.getValue()), e.getKey().lane()));
        }
        for (CompletableFuture<Void> f : running) {
            try {
                f.join();
            } catch (RuntimeException e) {
                LOG.error("flush of a tome failed", e);
            }
        }
        return full;
    }

    private void flushTome(Tome tome, List<FlushQueue.Pending> entries) {
        long start = System.nanoTime();
        Map<FlushQueue.Pending, Path> newFileDirs = new HashMap<>();
        List<FlushQueue.Pending> synced = new ArrayList<>();
        // New files' directories, in the order first seen; each is synced once per batch.
        Set<Path> directories = new LinkedHashSet<>();
        for (FlushQueue.Pending p : entries) {
            try {
                // An fdatasync (TomeFile#sync), not a full fsync: what a shard file needs back after
                // a crash is its data and its size and block map, which fdatasync flushes too; only
                // timestamps are left. A new file's name is the directory's, synced below.
                store.sync(p.id(), p.bytes(), false);
                synced.add(p);
                if (p.newFile()) {
                    Path dir = store.pathOf(p.id()).getParent();
                    newFileDirs.put(p, dir);
                    directories.add(dir);
                }
            } catch (IOException e) {
                metrics.flushError();
                pending.retryLater(p);
                LOG.warn("fsync of shard {} on {} failed; will retry: {}", p.id(), tome, e.toString());
            }
        }
        List<FlushQueue.Pending> durable = new ArrayList<>();
        for (FlushQueue.Pending p : synced) {
            if (!p.newFile() || syncDirectory(tome, newFileDirs.get(p), directories)) {
                durable.add(p);
            } else {
                pending.retryLater(p);
            }
        }
        List<ShardId> purge = new ArrayList<>();
        for (FlushQueue.Pending p : durable) {
            if (pending.complete(p)) {
                purge.add(p.id());
            }
        }
        if (purgeQueue != null && !purge.isEmpty()) {
            try {
                purgeQueue.append(purge);
            } catch (IOException e) {
                // The shards are durable here; their stash copies stay until recovery at the next
                // start lists and purges them. Nothing is lost, the stash just holds them longer.
                LOG.error("cannot queue {} purge events on {}; the stash keeps those copies until the next start",
                        purge.size(), tome, e);
            }
        }
        metrics.flushed(Duration.ofNanos(System.nanoTime() - start), durable.size());
    }

    /** Syncs {@code dir} once per batch; false if it failed. */
    private boolean syncDirectory(Tome tome, Path dir, Set<Path> toSync) {
        if (!toSync.contains(dir)) {
            return true;
        }
        try {
            tome.io().syncDirectory(dir);
            toSync.remove(dir);
            return true;
        } catch (IOException e) {
            metrics.flushError();
            LOG.warn("directory sync of {} failed; will retry: {}", dir, e.toString());
            return false;
        }
    }

    /**
     * Stops the flusher.
     *
     * @param flushRemaining flush what is pending first (a clean shutdown); false abandons it (a crash test)
     */
    public void close(boolean flushRemaining) {
        flushOnClose = flushRemaining;
        running = false;
        pending.wake();
        try {
            thread.join(TimeUnit.MINUTES.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(true);
    }
}
