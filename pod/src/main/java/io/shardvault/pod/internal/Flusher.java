package io.shardvault.pod.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Makes buffered writes durable: every {@code interval} (or sooner when enough bytes are waiting)
 * it takes a batch of pending shards per tome and runs each tome's batch on that tome's sync lane,
 * so tomes flush in parallel. A batch is made durable by one syncfs of the tome's file system where
 * the platform has it ({@link Tome#fileSystemSync}), else by an fsync of each file and then of the
 * directories of new files; only then it appends one purge event per fully flushed shard to the
 * durable purge queue (one fsync for the batch).
 *
 * <h2>A failed fsync</h2>
 * On Linux a failed fsync may drop the file's dirty pages (marked clean, never written): a retried
 * fsync then succeeds without writing anything, and a purge after it would delete the only durable
 * copy. So a shard whose fsync (or, for a new file, its directory's) failed, or whose file is gone
 * while it is pending, is marked not durable (after a failed syncfs: every pending shard of the tome) ({@link FlushQueue#markNotDurable}) and never purged on
 * a later fsync of the same file: the next round rewrites it from its stash copy ({@link
 * StashRecovery#restore}: a new file, synced, renamed, the directory synced) and only then queues
 * its purge. A stash that cannot be reached is
 * retried next round (the copy stays, as nothing purged it). When the rewrite is impossible (no
 * stash, no stash copy, the rewrite's own I/O fails) the tome is marked failed ({@link
 * Tome#markFailed}) and that is recorded durably ({@link FailedTomeMarker}): it takes no writes,
 * none of its shards is purged any more (their stash copies stay, across restarts, until an
 * operator clears the record), and the pod says so at ERROR and in the
 * {@code shardvault.pod.tomes.failed} gauge. A record the state directory refuses is retried at
 * every round (and once more as the flusher stops) until it lands; meanwhile the tome stays failed
 * in memory, STATS reports it unrecorded and {@code shardvault.pod.tomes.failed.unrecorded} counts it.
 *
 * <p>One thread, owned by this object.
 */
public final class Flusher implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

    private final String name;
    /** Where a failed tome is recorded ({@link FailedTomeMarker}). */
    private final Path stateDir;
    private final FlushQueue pending;
    private final ShardStore store;
    /** Where purge events go; a failed append is held and retried at the start of every round. */
    private final PurgeEvents purges;
    /** Where not-durable shards are rewritten from: the stash of the pod's assignment. */
    private final AssignedStash stash;
    private final Duration interval;
    private final int batchShards;
    private final PodMetrics metrics;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean flushOnClose = true;

    /** How long a rewrite waits for the stash copy before it tries again next round. */
    private static final Duration STASH_WAIT = Duration.ofSeconds(30);

    Flusher(String name, Path stateDir, FlushQueue pending, ShardStore store, PurgeEvents purges, AssignedStash stash,
            Duration interval, int batchShards, PodMetrics metrics) {
        this.name = name;
        this.stateDir = stateDir;
        this.pending = pending;
        this.store = store;
        this.purges = purges;
        this.stash = stash;
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
        recordRefusedFailures();
    }

    /** Flushes one batch per tome and waits for all of them; true if some tome's batch was full. */
    boolean flushOnce() {
        recordRefusedFailures();
        purges.retryHeld();
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
        if (tome.failed()) {
            // Taken off the round order and left pending: never purged, never retried in a loop.
            return;
        }
        long start = System.nanoTime();
        List<FlushQueue.Pending> durable = new ArrayList<>();
        List<FlushQueue.Pending> written = new ArrayList<>();
        for (FlushQueue.Pending p : entries) {
            if (!p.notDurable()) {
                written.add(p);
            } else if (rewrite(tome, p)) {
                durable.add(p);
            }
        }
        if (tome.fileSystemSync() != null) {
            syncFileSystem(tome, written, durable);
        } else {
            syncEachFile(tome, written, durable);
        }
        if (tome.failed()) {
            return; // failed during this batch: nothing of it is purged
        }
        List<ShardId> purge = new ArrayList<>();
        for (FlushQueue.Pending p : durable) {
            if (pending.complete(p)) {
                purge.add(p.id());
            }
        }
        // A failed append is held and retried (PurgeEvents): the stash keeps those copies meanwhile.
        purges.queue(purge);
        metrics.flushed(Duration.ofNanos(System.nanoTime() - start), durable.size());
    }

    /**
     * One syncfs for the batch ({@link TomeSync}): the files' data, inodes and the new files' directory
     * entries at once. It reports a writeback error that hit anything on the file system since the last
     * call, so after a failure no pending shard of the tome is trusted, in this batch or not: each is
     * rewritten from its stash copy before its purge.
     */
    private void syncFileSystem(Tome tome, List<FlushQueue.Pending> written, List<FlushQueue.Pending> durable) {
        List<FlushQueue.Pending> present = new ArrayList<>(written.size());
        long bytes = 0;
        for (FlushQueue.Pending p : written) {
            if (tome.io().exists(store.pathOf(p.id()))) {
                present.add(p);
                bytes += p.bytes();
            } else {
                gone(tome, p);
            }
        }
        if (present.isEmpty()) {
            return;
        }
        try {
            tome.fileSystemSync().sync(present.size(), bytes);
            durable.addAll(present);
        } catch (IOException e) {
            metrics.flushError();
            pending.markTomeNotDurable(tome, present);
            LOG.warn("pod {}: syncfs of {} failed; any write on its file system since the last one may be gone from "
                    + "the page cache, so every pending shard of the tome is rewritten from its stash copy before any "
                    + "purge: {}", name, tome, e.toString());
        }
    }

    /** An fdatasync per file, then one sync per directory that got new files. */
    private void syncEachFile(Tome tome, List<FlushQueue.Pending> written, List<FlushQueue.Pending> durable) {
        Map<FlushQueue.Pending, Path> newFileDirs = new HashMap<>();
        List<FlushQueue.Pending> synced = new ArrayList<>();
        // New files' directories: each is synced once per batch, in the order first seen; one that
        // failed its sync is not tried again in the batch (a second try proves nothing, as for files).
        Map<Path, Boolean> directorySynced = new HashMap<>();
        for (FlushQueue.Pending p : written) {
            try {
                // An fdatasync (TomeFile#sync), not a full fsync: what a shard file needs back after
                // a crash is its data and its size and block map, which fdatasync flushes too; only
                // timestamps are left. A new file's name is the directory's, synced below.
                if (!store.sync(p.id(), p.bytes(), false)) {
                    gone(tome, p);
                    continue;
                }
                synced.add(p);
                if (p.newFile()) {
                    Path dir = store.pathOf(p.id()).getParent();
                    newFileDirs.put(p, dir);
                }
            } catch (IOException e) {
                metrics.flushError();
                pending.markNotDurable(p);
                LOG.warn("pod {}: fsync of shard {} on {} failed; its bytes may be gone from the page cache, so it "
                        + "is rewritten from its stash copy before any purge: {}", name, p.id(), tome, e.toString());
            }
        }
        for (FlushQueue.Pending p : synced) {
            if (!p.newFile() || directorySynced.computeIfAbsent(newFileDirs.get(p), d -> syncDirectory(tome, d))) {
                durable.add(p);
            } else {
                // The failed directory sync may have dropped the new entry just the same: rewrite it.
                pending.markNotDurable(p);
            }
        }
    }

    /**
     * A pending shard's file is gone: deleted (its entry is then discarded, and nothing is purged here) or
     * lost. Either way nothing of it is on this disk, so no purge until it is rewritten.
     */
    private void gone(Tome tome, FlushQueue.Pending p) {
        if (pending.isPending(p)) {
            pending.markNotDurable(p);
            LOG.warn("pod {}: shard {} on {} is pending but its file is gone; rewriting it from the stash", name,
                    p.id(), tome);
        }
    }

    /**
     * Rewrites a not-durable shard from its stash copy, durably; true once done. Otherwise the entry
     * is put back (the stash could not be reached) or the tome is marked failed (the rewrite is
     * impossible).
     */
    private boolean rewrite(Tome tome, FlushQueue.Pending p) {
        if (!stash.available()) {
            failTome(tome, "shard " + p.id() + " failed its fsync and this pod has no stash copy to rewrite it from");
            return false;
        }
        StashAccess.Copy copy;
        try {
            copy = stash.get(p.id()).orTimeout(STASH_WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
        } catch (CompletionException e) {
            RpcException failure = RpcException.from(e);
            if (failure.code() == ErrorCode.NOT_FOUND) {
                if (pending.isPending(p)) {
                    failTome(tome, "shard " + p.id() + " failed its fsync and its stash copy is gone");
                }
                return false;
            }
            pending.retryLater(p);
            LOG.warn("pod {}: cannot fetch the stash copy of not-durable shard {} on {}; retrying next round: {}",
                    name, p.id(), tome, failure.toString());
            return false;
        }
        if (!pending.isPending(p)) {
            copy.data().release(); // deleted meanwhile: nothing to rewrite
            return false;
        }
        try {
            StashRecovery.restore(store, copy, metrics);
            LOG.info("pod {}: shard {} on {} rewritten from its stash copy and synced", name, p.id(), tome);
            return true;
        } catch (IOException e) {
            metrics.flushError();
            failTome(tome, "rewriting shard " + p.id() + " from its stash copy failed: " + e);
            return false;
        }
    }

    private void failTome(Tome tome, String reason) {
        if (!tome.markFailed(reason, Instant.now())) {
            return; // already failed, and said so
        }
        LOG.error("pod {}: {} FAILED: {}. It takes no more writes and purges none of its unflushed shards: their "
                + "stash copies stay until an operator replaces the disk and clears {} (docs/OPERATIONS.md)", name,
                tome, reason, stateDir.resolve(FailedTomeMarker.name(tome.index())));
        if (!record(tome)) {
            LOG.error("pod {}: cannot record that {} failed in the state directory {}. It stays failed while this "
                    + "process runs, and the record is retried every flush round; a restart before it lands would "
                    + "bring the tome up healthy and purge its shards' stash copies, so do not restart the pod until "
                    + "the gauge shardvault.pod.tomes.failed.unrecorded is 0", name, tome, stateDir);
        }
    }

    /** Writes the failure record of failed tome {@code tome}; true once it is on disk. */
    private boolean record(Tome tome) {
        try {
            FailedTomeMarker.write(stateDir, name, tome, tome.failure(), tome.failedAt());
            tome.markRecorded();
            return true;
        } catch (IOException e) {
            LOG.debug("pod {}: recording the failure of {} failed: {}", name, tome, e.toString());
            return false;
        }
    }

    /**
     * Retries the records the state directory refused: the fact that a tome failed must outlive
     * the process, or its next start would trust the tome and purge its shards' stash copies.
     */
    private void recordRefusedFailures() {
        for (Tome tome : store.tomes()) {
            if (tome.failed() && !tome.recorded() && record(tome)) {
                LOG.warn("pod {}: the failure of {} is recorded now in {}", name, tome,
                        stateDir.resolve(FailedTomeMarker.name(tome.index())));
            }
        }
    }

    /** Syncs {@code dir}; false if it failed. */
    private boolean syncDirectory(Tome tome, Path dir) {
        try {
            tome.io().syncDirectory(dir);
            return true;
        } catch (IOException e) {
            metrics.flushError();
            LOG.warn("pod {}: directory sync of {} failed; its new shards are rewritten from the stash: {}", name,
                    dir, e.toString());
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
