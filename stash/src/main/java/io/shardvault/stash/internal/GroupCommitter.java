package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashEntryInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every PUT and PURGE of the stash is written and made durable. Two threads share two roles,
 * each held by at most one thread at a time:
 * <ul>
 * <li><b>writer</b>: takes every request waiting in the queue, looks up the metas they touch, checks
 *     the byte budget, and applies them as one atomic RocksDB batch <em>without</em> a sync
 *     ({@link ShardStore#write}); the batch then waits for a sync;</li>
 * <li><b>syncer</b>: takes every batch written so far and calls {@link ShardStore#syncWal()}, which
 *     makes every write that returned before the call durable; only then are those batches'
 *     futures completed.</li>
 * </ul>
 * A thread that has just written a batch syncs it itself when no sync runs, so an idle stash adds
 * no thread hand-off between the write and its sync; under load, the next batch is written while
 * the previous one syncs (pipelining), and each sync covers every batch written before it began.
 *
 * <pre>
 *  handlers ──put/purge──▶ queue ──▶ [writer: lookup metas, budget check, one WriteBatch, no sync]
 *                                         └──▶ occupancy updated ──▶ unsynced batches
 *                                   [syncer: take all unsynced batches, fdatasync the WAL]
 *                                         └──▶ futures completed (the RPC answers go out)
 * </pre>
 *
 * <p>The promise holds because a batch is handed to the syncer only after its write returned (under
 * the lock that hands it over), and the syncer's {@code syncWal} starts after that hand-off: the
 * fdatasync covers the batch's WAL bytes. A batch of purges that found nothing to delete is answered
 * without a sync when no batch waits for one and none runs: every write before it was then covered by a
 * sync that returned (or failed, failing its batches: a deletion of those may not be durable, and the entry
 * may come back after a crash, a copy kept too long, never one lost). A written batch is visible to reads
 * before it is synced;
 * the stash's readers only read acknowledged entries, and a crash loses only unacknowledged ones.
 *
 * <p>Limits: one write carries at most {@code maxBatchBytes} of chunk bytes (at least one
 * request); at most {@code maxQueuedBytes} of chunk bytes wait for their acknowledgement (queued,
 * or written and not yet synced), beyond which a PUT fails {@code BUSY}. A PUT that would take the
 * stash over its {@link ByteBudget} fails {@code STASH_FULL}; the budget is shared with the other
 * partitions' committers, so their concurrent PUTs cannot overshoot it together. A PUT of an id
 * already stored with the same offset, length and CRC is a no-op that succeeds (a retry); with
 * different content it replaces the entry. One committer owns each id (its partition's), and its
 * writes are serialized, so the replace-or-insert accounting is exact without further locks.
 *
 * <p>Thread-safe. {@link #close()} writes and syncs what is queued, then stops; later requests
 * fail {@code SHUTTING_DOWN}. A failed write fails the futures of its batch and changes nothing; a
 * failed sync fails the futures of the batches it covered (they stay applied, and counted, but were
 * never acknowledged); either way the committer goes on.
 */
public final class GroupCommitter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);
    private static final int THREADS = 2;
    /** About 2 MB of ids at most; purges of absent ids are rare (a race, or a file abandoned before its PUTs ended). */
    private static final int EARLY_PURGES_MAX_IDS = 16_384;
    private static final long EARLY_PURGES_MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(10);
    /**
     * Test hook, zero in production: a pause before each WAL sync, so that a kill -9 test
     * ({@code StashKillTest}) lands while batches are written and not yet synced.
     */
    private static final long PAUSE_BEFORE_SYNC_MICROS = Long.getLong("shardvault.stash.test.pauseBeforeSyncMicros", 0);

    private final ShardStore store;
    private final Occupancy occupancy;
    private final StashMetrics metrics;
    private final ByteBudget budget;
    private final long maxBatchBytes;
    private final long maxQueuedBytes;
    private final Object lock = new Object();
    /** Used by the writer role only. */
    private final EarlyPurges earlyPurges = new EarlyPurges(EARLY_PURGES_MAX_IDS, EARLY_PURGES_MAX_AGE_NANOS,
            System::nanoTime);
    /** Requests not yet written. Guarded by {@link #lock}. */
    private final ArrayDeque<Op> queue = new ArrayDeque<>();
    /** Batches written and not yet synced, oldest first. Guarded by {@link #lock}. */
    private final List<Written> unsynced = new ArrayList<>();
    /** Whether a thread holds the writer role. Guarded by {@link #lock}. */
    private boolean writing;
    /** Whether a thread holds the syncer role. Guarded by {@link #lock}. */
    private boolean syncing;
    private final AtomicLong queuedBytes = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>(THREADS);
    private volatile boolean closing;
    private volatile Throwable died;

    /**
     * A batch applied by the writer: what to complete once a sync covers it. {@code onlyAbsentPurges}: it
     * was purges of ids the store did not hold, and changed nothing.
     */
    private record Written(int ops, long bytes, long startNanos, List<Runnable> acks, List<Op> batch,
                           boolean onlyAbsentPurges) {
    }

    private sealed interface Op permits PutOp, PurgeOp {
        long bytes();

        long enqueuedNanos();
    }

    /** A PUT waiting to be written; it owns {@code chunkValue} until {@link #releaseValues} releases it. */
    private record PutOp(StashEntryInfo info, ByteBuf chunkValue, CompletableFuture<Void> done, long enqueuedNanos)
            implements Op {
        @Override
        public long bytes() {
            return chunkValue.readableBytes();
        }
    }

    private record PurgeOp(List<ShardId> ids, CompletableFuture<Integer> done, long enqueuedNanos) implements Op {
        @Override
        public long bytes() {
            return (long) ids.size() * ShardId.ENCODED_LENGTH;
        }
    }

    /**
     * @param name names the threads ({@code stash-committer-<name>-<i>}): the partition
     * @param budget the byte budget, shared with the other partitions' committers
     */
    public GroupCommitter(String name, ShardStore store, Occupancy occupancy, ByteBudget budget, StashMetrics metrics,
                          long maxBatchBytes, long maxQueuedBytes) {
        this.store = store;
        this.occupancy = occupancy;
        this.budget = budget;
        this.metrics = metrics;
        this.maxBatchBytes = maxBatchBytes;
        this.maxQueuedBytes = maxQueuedBytes;
        for (int i = 0; i < THREADS; i++) {
            Thread thread = new Thread(this::runGuarded, "stash-committer-" + name + "-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
    }

    public void start() {
        threads.forEach(Thread::start);
    }

    /**
     * Stores an entry; completes once it is durable. Takes ownership of {@code chunkValue} (the
     * {@link EntryFormat} chunk value) and releases it once written, or refused.
     */
    public CompletableFuture<Void> put(StashEntryInfo info, ByteBuf chunkValue) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(new PutOp(info, chunkValue, done, System.nanoTime()));
        return done;
    }

    /** Deletes entries; completes, with how many existed, once the deletions are durable. */
    public CompletableFuture<Integer> purge(List<ShardId> ids) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        enqueue(new PurgeOp(List.copyOf(ids), done, System.nanoTime()));
        return done;
    }

    private void enqueue(Op op) {
        if (closing) {
            refuse(List.of(op), new RpcException(ErrorCode.SHUTTING_DOWN, "stash is shutting down"));
            return;
        }
        if (died != null) {
            refuse(List.of(op), new RpcException(ErrorCode.INTERNAL, "the stash committer died: " + died, died));
            return;
        }
        long after = queuedBytes.addAndGet(op.bytes());
        if (after > maxQueuedBytes && after != op.bytes()) {
            queuedBytes.addAndGet(-op.bytes());
            refuse(List.of(op), new RpcException(ErrorCode.BUSY, "stash commit queue holds " + (after
                    - op.bytes()) + " bytes, stash.commit.maxQueuedBytes=" + maxQueuedBytes));
            return;
        }
        boolean orphan;
        synchronized (lock) {
            queue.add(op);
            lock.notifyAll();
            // The threads may have stopped between the checks above and the add: nobody would take the op.
            orphan = (closing || died != null) && threads.stream().noneMatch(Thread::isAlive) && queue.remove(op);
        }
        if (orphan) {
            queuedBytes.addAndGet(-op.bytes());
            refuse(List.of(op), new RpcException(ErrorCode.SHUTTING_DOWN, "stash committer stopped"));
        }
    }

    /** Runs the loop; if an Error ends it, fails what waits and every later request instead of hanging them. */
    private void runGuarded() {
        try {
            run();
        } catch (Throwable t) {
            died = t;
            LOG.error("stash committer died; every write will fail until restart", t);
            List<Op> unwritten;
            List<Op> unsyncedOps = new ArrayList<>();
            synchronized (lock) {
                unwritten = new ArrayList<>(queue);
                queue.clear();
                unsynced.forEach(w -> unsyncedOps.addAll(w.batch()));
                unsynced.clear();
                lock.notifyAll();
            }
            RpcException failure = new RpcException(ErrorCode.INTERNAL, "the stash committer died: " + t, t);
            refuse(unwritten, failure);
            failAll(unsyncedOps, failure);
            throw t;
        }
    }

    /** Takes whichever role is free and has work, syncing first; returns once closing and nothing is left. */
    private void run() {
        while (true) {
            List<Written> toSync = null;
            List<Op> toWrite = null;
            synchronized (lock) {
                while (toSync == null && toWrite == null) {
                    if (died != null) {
                        return;
                    }
                    if (!syncing && !unsynced.isEmpty()) {
                        syncing = true;
                        toSync = new ArrayList<>(unsynced);
                        unsynced.clear();
                    } else if (!writing && !queue.isEmpty()) {
                        writing = true;
                        toWrite = takeBatch();
                    } else if (closing && queue.isEmpty() && unsynced.isEmpty() && !writing) {
                        return;
                    } else {
                        try {
                            lock.wait(100);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
            }
            if (toSync != null) {
                sync(toSync);
            } else {
                write(toWrite);
            }
        }
    }

    /** Up to {@code maxBatchBytes} of queued requests (at least one). Call holding {@link #lock}. */
    private List<Op> takeBatch() {
        List<Op> batch = new ArrayList<>();
        long bytes = 0;
        Op next;
        while ((batch.isEmpty() || bytes < maxBatchBytes) && (next = queue.poll()) != null) {
            batch.add(next);
            bytes += next.bytes();
        }
        return batch;
    }

    /** The writer role: applies one batch unsynced, then hands it to the syncer. */
    private void write(List<Op> batch) {
        long bytes = batch.stream().mapToLong(Op::bytes).sum();
        Written written = null;
        try {
            written = apply(batch, bytes);
        } catch (RuntimeException e) {
            LOG.error("stash write failed unexpectedly", e);
            failAll(batch, new RpcException(ErrorCode.INTERNAL, "stash write failed: " + e, e));
        } catch (Error e) {
            failAll(batch, new RpcException(ErrorCode.INTERNAL, "stash write failed: " + e, e));
            throw e;
        } finally {
            // The store copied the values (into its chunk log); nothing reads them after the write.
            releaseValues(batch);
            boolean durableAlready = false;
            synchronized (lock) {
                writing = false;
                if (written != null) {
                    // Purges of absent ids change nothing: with no batch written and unsynced, and no sync
                    // under way, the absence they read was covered by a sync, and one of their own would cover no
                    // byte (a rebuild purges each file's stash copies, long gone, one request per file).
                    // A PUT always waits for a sync, even one repeating a stored entry: a sync that
                    // failed may have left that entry readable and not durable.
                    durableAlready = written.onlyAbsentPurges() && unsynced.isEmpty() && !syncing;
                    if (!durableAlready) {
                        unsynced.add(written);
                    }
                }
                lock.notifyAll();
            }
            if (written == null || durableAlready) {
                queuedBytes.addAndGet(-bytes);
            }
            if (durableAlready) {
                metrics.committed(written.ops(), System.nanoTime() - written.startNanos());
                written.acks().forEach(Runnable::run);
            }
        }
    }

    /** The syncer role: one WAL sync covering every batch written before it, then their acknowledgements. */
    private void sync(List<Written> batches) {
        Throwable failure = null;
        long start = System.nanoTime();
        try {
            if (PAUSE_BEFORE_SYNC_MICROS > 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(PAUSE_BEFORE_SYNC_MICROS));
            }
            store.syncWal();
            metrics.synced(System.nanoTime() - start);
        } catch (ShardStoreException e) {
            LOG.error("stash WAL sync failed; failing {} batches", batches.size(), e);
            failure = e;
        } catch (RuntimeException e) {
            LOG.error("stash WAL sync failed unexpectedly", e);
            failure = new RpcException(ErrorCode.INTERNAL, "stash WAL sync failed: " + e, e);
        } catch (Error e) {
            failure = new RpcException(ErrorCode.INTERNAL, "stash WAL sync failed: " + e, e);
            throw e;
        } finally {
            // Give up the role before answering, so that the next sync can start while we answer.
            synchronized (lock) {
                syncing = false;
                lock.notifyAll();
            }
            long now = System.nanoTime();
            for (Written written : batches) {
                queuedBytes.addAndGet(-written.bytes());
                if (failure == null) {
                    metrics.committed(written.ops(), now - written.startNanos());
                    written.acks().forEach(Runnable::run);
                } else {
                    failAll(written.batch(), failure);
                }
            }
        }
    }

    /** Applies a batch unsynced; returns what its sync must complete, or null when it failed (futures failed). */
    private Written apply(List<Op> batch, long bytes) {
        long start = System.nanoTime();
        Map<ShardId, Optional<StashEntryInfo>> current;
        try {
            current = lookUp(batch);
        } catch (ShardStoreException e) {
            LOG.error("stash write: reading metas failed", e);
            failAll(batch, e);
            return null;
        }
        List<ShardStore.Mutation> mutations = new ArrayList<>();
        List<StashEntryInfo> removed = new ArrayList<>();
        List<StashEntryInfo> added = new ArrayList<>();
        List<Runnable> onSuccess = new ArrayList<>(batch.size());
        // Bytes taken from the shared budget for this batch, and bytes it frees: a purge or a smaller
        // replacement earlier in the batch makes room for a PUT later in it; the rest is given back once written.
        long taken = 0;
        long freed = 0;
        for (Op op : batch) {
            if (op instanceof PutOp put) {
                StashEntryInfo info = put.info();
                Optional<StashEntryInfo> existing = current.get(info.id());
                if (existing.isEmpty() && earlyPurges.purged(info.id())) {
                    // Its pod fsynced its own copy and purged this one already: storing it would leak it.
                    metrics.putAfterPurge();
                    onSuccess.add(() -> put.done().complete(null));
                    continue;
                }
                if (existing.isPresent() && sameContent(existing.get(), info)) {
                    onSuccess.add(() -> put.done().complete(null));
                    continue;
                }
                long growth = info.length() - existing.map(StashEntryInfo::length).orElse(0);
                long need = Math.max(0, growth - freed);
                if (need > 0 && !budget.tryTake(need)) {
                    metrics.stashFull();
                    put.done().completeExceptionally(new RpcException(ErrorCode.STASH_FULL, "storing " + info.id()
                            + " (" + info.length() + " bytes) would take the stash to " + (budget.usedBytes() + need)
                            + " bytes, over stash.capacityBytes=" + budget.capacityBytes()));
                    continue;
                }
                taken += need;
                freed = Math.max(0, freed - growth);
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
                        freed += existing.get().length();
                        removed.add(existing.get());
                        current.put(id, Optional.empty());
                        mutations.add(new ShardStore.Delete(id));
                        deleted++;
                    } else {
                        earlyPurges.purgedAbsent(id);
                    }
                }
                int count = deleted;
                onSuccess.add(() -> purge.done().complete(count));
            }
        }
        boolean wrote = false;
        try {
            store.write(mutations);
            wrote = true;
        } catch (ShardStoreException e) {
            LOG.error("stash write of {} mutations failed", mutations.size(), e);
            failAll(batch, e);
            return null;
        } finally {
            budget.give(wrote ? freed : taken);
        }
        // Removals first: an entry replaced within this batch is both removed and added.
        removed.forEach(occupancy::removed);
        added.forEach(occupancy::added);
        metrics.written(start - batch.get(0).enqueuedNanos(), System.nanoTime() - start);
        boolean onlyAbsentPurges = mutations.isEmpty() && batch.stream().allMatch(op -> op instanceof PurgeOp);
        return new Written(batch.size(), bytes, start, onSuccess, batch, onlyAbsentPurges);
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

    /** Fails ops that were never written, and releases their values. */
    private static void refuse(List<Op> ops, Throwable why) {
        releaseValues(ops);
        failAll(ops, why);
    }

    private static void releaseValues(List<Op> ops) {
        for (Op op : ops) {
            if (op instanceof PutOp put) {
                put.chunkValue().release();
            }
        }
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

    /** Writes and syncs what is queued, then stops the threads. */
    @Override
    public void close() {
        closing = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        try {
            for (Thread thread : threads) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (threads.stream().anyMatch(Thread::isAlive)) {
            LOG.warn("stash committer did not stop within a minute");
        }
        List<Op> left;
        synchronized (lock) {
            left = new ArrayList<>(queue);
            queue.clear();
        }
        refuse(left, new RpcException(ErrorCode.SHUTTING_DOWN, "stash shut down"));
    }
}
