package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.pod.api.PodSlot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Start-up recovery, run before a pod serves: for each slot the pod holds, pages through the
 * stash's unpurged entries, checks the local copy of each (present, length, CRC), restores a
 * missing or corrupt one from the stash, fsyncs every listed shard (a copy that survived a process
 * crash may still sit unsynced in the page cache), and queues their purges. A stash that cannot be
 * reached is retried with backoff until {@code timeout}, then recovery fails and the pod does not
 * start: serving without it could hide lost acknowledged writes.
 *
 * <p>A shard whose tome has failed ({@link Tome#failed}) is neither checked nor restored nor
 * purged: its stash copy may be its only good copy, and it cannot go to a healthy tome instead
 * (a shard's tome is a fixed hash of its id; reads look only there). The copy stays until an
 * operator clears the tome and a later start's recovery restores it there.
 *
 * <p>Runs once, on the starting thread.
 */
public final class StashRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(StashRecovery.class);
    private static final int PAGE = 1000;

    /** What recovery did. */
    public record Report(int checked, int restored, int vanished, int keptForFailedTomes) {
    }

    private final String name;
    private final ShardStore store;
    private final StashAccess stash;
    private final PurgeQueue purgeQueue;
    private final Duration timeout;
    private final PodMetrics metrics;

    public StashRecovery(String name, ShardStore store, StashAccess stash, PurgeQueue purgeQueue, Duration timeout,
                         PodMetrics metrics) {
        this.name = name;
        this.store = store;
        this.stash = stash;
        this.purgeQueue = purgeQueue;
        this.timeout = timeout;
        this.metrics = metrics;
    }

    public Report recover(List<PodSlot> slots) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int checked = 0;
        int restored = 0;
        int vanished = 0;
        int kept = 0;
        for (PodSlot slot : slots) {
            Optional<ShardId> after = Optional.empty();
            do {
                Optional<ShardId> from = after;
                StashAccess.Page page = withRetry(deadline, "list " + slot,
                        () -> stash.list(slot.vaultId(), slot.shardIndex(), from, PAGE));
                Map<Tome, List<StashAccess.Entry>> byTome = new HashMap<>();
                List<ShardId> purge = new ArrayList<>();
                for (StashAccess.Entry e : page.entries()) {
                    Tome tome = store.tomeFor(e.id());
                    if (tome.failed()) {
                        kept++;
                        continue;
                    }
                    byTome.computeIfAbsent(tome, t -> new ArrayList<>()).add(e);
                    purge.add(e.id());
                }
                List<CompletableFuture<int[]>> perTome = new ArrayList<>();
                for (Map.Entry<Tome, List<StashAccess.Entry>> t : byTome.entrySet()) {
                    perTome.add(CompletableFuture.supplyAsync(() -> recoverOnTome(t.getValue(), deadline),
                            t.getKey().lane()));
                }
                for (CompletableFuture<int[]> f : perTome) {
                    int[] counts = join(f);
                    checked += counts[0];
                    restored += counts[1];
                    vanished += counts[2];
                }
                purgeQueue.append(purge);
                after = page.next();
                if (page.entries().isEmpty()) {
                    after = Optional.empty();
                }
            } while (after.isPresent());
        }
        Report report = new Report(checked, restored, vanished, kept);
        LOG.info("pod {} recovery done: checked={} restored={} vanishedFromStash={} keptForFailedTomes={}", name,
                checked, restored, vanished, kept);
        return report;
    }

    /** Checks, restores and fsyncs one tome's share of a page; returns {checked, restored, vanished}. */
    private int[] recoverOnTome(List<StashAccess.Entry> entries, long deadline) {
        int restored = 0;
        int vanished = 0;
        try {
            for (StashAccess.Entry e : entries) {
                ShardStore.ChunkState state = store.check(e.id(), e.offsetInShard(), e.length(), e.crc32c());
                if (state == ShardStore.ChunkState.PRESENT) {
                    store.sync(e.id(), e.length(), true);
                    continue;
                }
                StashAccess.Copy copy;
                try {
                    copy = withRetry(deadline, "get " + e.id(), () -> stash.get(e.id()));
                } catch (RpcException notFound) {
                    if (notFound.code() != ErrorCode.NOT_FOUND) {
                        throw notFound;
                    }
                    // Purged between LIST and GET: another delivery of this pod's purge won the race,
                    // so the pod had it durable. Nothing to restore.
                    vanished++;
                    continue;
                }
                LOG.info("pod {} restoring shard {} ({}) from the stash", name, e.id(), state);
                restore(store, copy, metrics);
                restored++;
            }
        } catch (IOException ex) {
            throw new CompletionException(ex);
        }
        return new int[] {entries.size(), restored, vanished};
    }

    /**
     * Rewrites a shard from its stash copy, durably ({@link ShardStore#restore}: a new file, synced,
     * renamed over the old one, the directory synced), and releases the copy. The one way a pod
     * re-sources a shard: here at start, and in the {@link Flusher} after a failed fsync.
     */
    static void restore(ShardStore store, StashAccess.Copy copy, PodMetrics metrics) throws IOException {
        try {
            StashAccess.Entry e = copy.entry();
            store.restore(e.id(), e.offsetInShard(), e.crc32c(), copy.data());
            metrics.restoredShard();
        } finally {
            copy.data().release();
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        CompletableFuture<T> start();
    }

    /** Retries a stash call with backoff until the deadline; NOT_FOUND and BAD_REQUEST are not retried. */
    private <T> T withRetry(long deadline, String what, Call<T> call) throws IOException {
        long backoff = TimeUnit.MILLISECONDS.toNanos(100);
        while (true) {
            try {
                return call.start().join();
            } catch (CompletionException e) {
                RpcException failure = RpcException.from(e);
                if (failure.code() == ErrorCode.NOT_FOUND || failure.code() == ErrorCode.BAD_REQUEST
                        || System.nanoTime() + backoff > deadline) {
                    throw failure;
                }
                LOG.warn("pod {} recovery: {} failed, retrying in {} ms: {}", name, what,
                        TimeUnit.NANOSECONDS.toMillis(backoff), failure.getMessage());
                try {
                    TimeUnit.NANOSECONDS.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted during recovery", ie);
                }
                backoff = Math.min(backoff * 2, TimeUnit.SECONDS.toNanos(5));
            }
        }
    }

    private static <T> T join(CompletableFuture<T> f) throws IOException {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }
}
