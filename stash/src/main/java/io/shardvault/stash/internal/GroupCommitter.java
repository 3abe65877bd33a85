package io.shardvault.stash.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.StashEntryInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that writes to the stash: it takes every PUT and PURGE waiting in its queue,
 * checks the byte budget, writes them as one atomic RocksDB batch with one WAL sync, updates the
 * {@link Occupancy}, and only then completes their futures. Concurrent requests thus share a sync
 * (group commit) and never see an acknowledgement before their bytes are durable. Being the only
 * writer also makes the budget check and the replace-or-insert accounting exact without locks.
 *
 * <pre>
 *  handlers ──put/purge──▶ queue ──▶ [committer thread: lookup metas, budget check, one WriteBatch, sync]
 *                                                        └──▶ occupancy updated ──▶ futures completed
 * </pre>
 *
 * <p>Limits: one commit carries at most {@code maxBatchBytes} of chunk bytes (at least one
 * request); at most {@code maxQueuedBytes} of chunk bytes wait, beyond which a PUT fails
 * {@code BUSY}. A PUT that would take the stored bytes over {@code capacityBytes} fails
 * {@code STASH_FULL}; a PUT of an id already stored with the same offset, length and CRC is a
 * no-op that succeeds (a retry); with different content it replaces the entry.
 *
 * <p>Thread-safe. {@link #close()} commits what is queued, then stops; later requests fail
 * {@code SHUTTING_DOWN}. A failed commit fails the futures of its batch and the committer goes on.
 */
public final class GroupCommitter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);

    private final ShardStore store;
    private final Occupancy occupancy;
    private final StashMetrics metrics;
    private final long capacityBytes;
    private final long maxBatchBytes;
    private final long maxQueuedBytes;
    private final LinkedBlockingQueue<Op> queue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Thread thread;
    private volatile boolean closing;
    private volatile Throwable died;

    private sealed interface Op permits PutOp, PurgeOp {
        long bytes();
    }

    private record PutOp(StashEntryInfo info, byte[] chunkValue, CompletableFuture<Void> done) implements Op {
        @Override
        public long bytes() {
            return chunkValue.length;
        }
    }

    private record PurgeOp(List<ShardId> ids, CompletableFuture<Integer> done) implements Op {
        @Override
        public long bytes() {
            return (long) ids.size() * ShardId.ENCODED_LENGTH;
        }
    }

    public GroupCommitter(ShardStore store, Occupancy occupancy, StashMetrics metrics, long capacityBytes,
                          long maxBatchBytes, long maxQueuedBytes) {
        this.store = store;
        this.occupancy = occupancy;
        this.metrics = metrics;
        this.capacityBytes = capacityBytes;
        this.maxBatchBytes = maxBatchBytes;
        this.maxQueuedBytes = maxQueuedBytes;
        this.thread = new Thread(this::runGuarded, "stash-committer");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Stores an entry; completes once it is durable. */
    public CompletableFuture<Void> put(StashEntryInfo info, byte[] chunkValue) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(new PutOp(info, chunkValue, done), done);
        return done;
    }

    /** Deletes entries; completes, with how many existed, once the deletions are durable. */
    public CompletableFuture<Integer> purge(List<ShardId> ids) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        enqueue(new PurgeOp(List.copyOf(ids), done), done);
        return done;
    }

    private void enqueue(Op op, CompletableFuture<?> done) {
        if (closing) {
            done.completeExceptionally(new RpcException(ErrorCode.SHUTTING_DOWN, "stash is shutting down"));
            return;
        }
        if (died != null) {
            done.completeExceptionally(new RpcException(ErrorCode.INTERNAL, "the stash committer died: " + died,
                    died));
            return;
        }
        long after = queuedBytes.addAndGet(op.bytes());
        if (after > maxQueuedBytes && after != op.bytes()) {
            queuedBytes.addAndGet(-op.bytes());
            done.completeExceptionally(new RpcException(ErrorCode.BUSY, "stash commit queue holds " + (after
                    - op.bytes()) + " bytes, stash.commit.maxQueuedBytes=" + maxQueuedBytes));
            return;
        }
        queue.add(op);
        // The thread may have stopped between the checks above and the add: nobody would take the op.
        if ((closing || died != null) && !thread.isAlive() && queue.remove(op)) {
            done.completeExceptionally(new RpcException(ErrorCode.SHUTTING_DOWN, "stash committer stopped"));
        }
    }

    /** Runs the loop; if an Error ends it, fails what waits and every later request instead of hanging them. */
    private void runGuarded() {
        try {
            run();
        } catch (Throwable t) {
            died = t;
            LOG.error("stash committer died; every write will fail until restart", t);
            failAll(new ArrayList<>(queue), new RpcException(ErrorCode.INTERNAL, "the stash committer died: " + t, t));
            queue.clear();
            throw t;
        }
    }

    private void run() {
        List<Op> batch = new ArrayList<>();
        while (true) {
            Op first;
            try {
                first = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (first == null) {
                if (closing && queue.isEmpty()) {
                    break;
                }
                continue;
            }
            batch.add(first);
            long bytes = first.bytes();
            Op next;
            while (bytes < maxBatchBytes && (next = queue.poll()) != null) {
                batch.add(next);
                bytes += next.bytes();
            }
            queuedBytes.addAndGet(-bytes);
            try {
                commit(batch);
            } catch (RuntimeException e) {
                LOG.error("stash commit failed unexpectedly", e);
                failAll(batch, new RpcException(ErrorCode.INTERNAL, "stash commit failed: " + e, e));
            } catch (Error e) {
                failAll(batch, new RpcException(ErrorCode.INTERNAL, "stash commit failed: " + e, e));
                throw e;
            }
            batch.clear();
        }
        failAll(new ArrayList<>(queue), new RpcException(ErrorCode.SHUTTING_DOWN, "stash shut down"));
    }

    private void commit(List<Op> batch) {
        long start = System.nanoTime();
        Map<ShardId, Optional<StashEntryInfo>> current;
        try {
            current = lookUp(batch);
        } catch (ShardStoreException e) {
            LOG.error("stash commit: reading metas failed", e);
            failAll(batch, e);
            return;
        }
        List<ShardStore.Mutation> mutations = new ArrayList<>();
        List<StashEntryInfo> removed = new ArrayList<>();
        List<StashEntryInfo> added = new ArrayList<>();
        List<Runnable> onSuccess = new ArrayList<>(batch.size());
        long projected = occupancy.bytes();
        for (Op op : batch) {
            if (op instanceof PutOp put) {
                StashEntryInfo info = put.info();
                Optional<StashEntryInfo> existing = current.get(info.id());
                if (existing.isPresent() && sameContent(existing.get(), info)) {
                    onSuccess.add(() -> put.done().complete(null));
                    continue;
                }
                long after = projected - existing.map(StashEntryInfo::length).orElse(0) + info.length();
                if (after > capacityBytes) {
                    metrics.stashFull();
                    put.done().completeExceptionally(new RpcException(ErrorCode.STASH_FULL, "storing " + info.id()
                            + " (" + info.length() + " bytes) would take the stash to " + after
                            + " bytes, over stash.capacityBytes=" + capacityBytes));
                    continue;
                }
                projected = after;
                existing.ifPresent(removed::add);
                added.add(info);
                current.put(info.id(), Optional.of(info));
                mutations.add(new ShardStore.Put(info, put.chunkValue()));
                onSuccess.add(() -> put.done().complete(null));
            } else {
                PurgeOp purge = (PurgeOp) op;
                int deleted = 0;
                for (ShardId id : purge.ids()) {
                    Optional<StashEntryInfo> existing = current.get(id);
                    if (existing.isPresent()) {
                        projected -= existing.get().length();
                        removed.add(existing.get());
                        current.put(id, Optional.empty());
                        mutations.add(new ShardStore.Delete(id));
                        deleted++;
                    }
                }
                int count = deleted;
                onSuccess.add(() -> purge.done().complete(count));
            }
        }
        try {
            store.commit(mutations);
        } catch (ShardStoreException e) {
            LOG.error("stash commit of {} mutations failed", mutations.size(), e);
            failAll(batch, e);
            return;
        }
        // Removals first: an entry replaced within this batch is both removed and added.
        removed.forEach(occupancy::removed);
        added.forEach(occupancy::added);
        metrics.committed(batch.size(), System.nanoTime() - start);
        onSuccess.forEach(Runnable::run);
    }

    /** The stored meta of every id the batch touches, as of before the batch. */
    private Map<ShardId, Optional<StashEntryInfo>> lookUp(List<Op> batch) throws ShardStoreException {
        List<ShardId> ids = new ArrayList<>();
        for (Op op : batch) {
            if (op instanceof PutOp put) {
                ids.add(put.info().id());
            } else {
                ids.addAll(((PurgeOp) op).ids());
            }
        }
        List<ShardId> distinct = ids.stream().distinct().toList();
        List<Optional<StashEntryInfo>> metas = store.metas(distinct);
        Map<ShardId, Optional<StashEntryInfo>> current = new HashMap<>(distinct.size() * 2);
        for (int i = 0; i < distinct.size(); i++) {
            current.put(distinct.get(i), metas.get(i));
        }
        return current;
    }

    private static boolean sameContent(StashEntryInfo a, StashEntryInfo b) {
        return a.offsetInShard() == b.offsetInShard() && a.length() == b.length() && a.crc32c() == b.crc32c();
    }

    private static void failAll(List<Op> ops, Throwable failure) {
        for (Op op : ops) {
            if (op instanceof PutOp put) {
                put.done().completeExceptionally(failure);
            } else {
                ((PurgeOp) op).done().completeExceptionally(failure);
            }
        }
    }

    /** Commits what is queued, then stops the thread. */
    @Override
    public void close() {
        closing = true;
        try {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("stash committer did not stop within a minute");
        }
    }
}
