package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shards written in buffered mode and not yet fsynced: one entry per shard (later writes to a
 * pending shard merge into its entry), and per tome a FIFO of shard ids, so that taking a batch
 * costs the batch, not the backlog. Lives in memory: after a crash the stash, not this queue, knows
 * what was unflushed. Its size is bounded by {@code pod.flush.maxUnflushedBytes}: past it, writes
 * are made durable instead of queued.
 *
 * <p>Thread-safe. One flusher takes batches; any thread adds.
 */
public final class FlushQueue {

    /**
     * One shard waiting for its fsync. Immutable: a merge replaces the entry, keeping its
     * {@code life}, the number that tells a merged entry from a new one after a removal, and its
     * {@code notDurable} mark: an fsync of it failed (or its file vanished), so the kernel may have
     * dropped its bytes and a later fsync proves nothing; it must be rewritten before any purge.
     */
    public record Pending(Tome tome, ShardId id, long bytes, boolean newFile, long queuedAtNanos, long life,
                          boolean notDurable) {
    }

    private final ConcurrentHashMap<ShardId, Pending> pending = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Tome, ConcurrentLinkedQueue<ShardId>> order = new ConcurrentHashMap<>();
    private final AtomicLong lives = new AtomicLong();
    private final AtomicLong unflushedBytes = new AtomicLong();
    private final long wakeBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();

    /** @param wakeBytes unflushed bytes at which the flusher is woken before its interval ends */
    public FlushQueue(long wakeBytes) {
        this.wakeBytes = wakeBytes;
    }

    private ConcurrentLinkedQueue<ShardId> orderOf(Tome tome) {
        return order.computeIfAbsent(tome, t -> new ConcurrentLinkedQueue<>());
    }

    public void add(Tome tome, ShardId id, long bytes, boolean newFile) {
        long now = System.nanoTime();
        boolean[] inserted = {false};
        pending.compute(id, (k, old) -> {
            if (old == null) {
                inserted[0] = true;
                return new Pending(tome, id, bytes, newFile, now, lives.incrementAndGet(), false);
            }
            return new Pending(tome, id, old.bytes() + bytes, old.newFile() || newFile, old.queuedAtNanos(),
                    old.life(), old.notDurable());
        });
        if (inserted[0]) {
            orderOf(tome).add(id);
        }
        if (unflushedBytes.addAndGet(bytes) >= wakeBytes) {
            wake();
        }
    }

    /** Wakes the flusher now. */
    public void wake() {
        lock.lock();
        try {
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code nanos} or until {@link #wake()}. */
    public void awaitWork(long nanos) throws InterruptedException {
        lock.lock();
        try {
            if (unflushedBytes.get() < wakeBytes) {
                work.await(nanos, TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Up to {@code maxPerTome} pending entries of each tome, oldest first. */
    public Map<Tome, List<Pending>> takeBatch(int maxPerTome) {
        Map<Tome, List<Pending>> byTome = new HashMap<>();
        for (Map.Entry<Tome, ConcurrentLinkedQueue<ShardId>> e : order.entrySet()) {
            List<Pending> batch = new ArrayList<>();
            Set<ShardId> seen = new HashSet<>();
            ShardId id;
            while (batch.size() < maxPerTome && (id = e.getValue().poll()) != null) {
                Pending p = pending.get(id);
                if (p != null && seen.add(id)) {
                    batch.add(p);
                }
            }
            if (!batch.isEmpty()) {
                byTome.put(e.getKey(), batch);
            }
        }
        return byTome;
    }

    /**
     * Records that {@code synced} (an entry taken by {@link #takeBatch}) is fsynced. Returns true
     * when the shard has nothing left unflushed, so its purge may be queued; false when a write
     * arrived meanwhile (what remains is queued again, and the purge waits for it).
     */
    public boolean complete(Pending synced) {
        boolean[] done = {false};
        boolean[] requeue = {false};
        pending.computeIfPresent(synced.id(), (id, current) -> {
            if (current.life() != synced.life()) {
                return current; // removed and written anew since: that write has its own life
            }
            unflushedBytes.addAndGet(-synced.bytes());
            if (current == synced) {
                done[0] = true;
                return null;
            }
            requeue[0] = true;
            return new Pending(current.tome(), id, Math.max(0, current.bytes() - synced.bytes()), false,
                    current.queuedAtNanos(), current.life(), false);
        });
        if (requeue[0]) {
            orderOf(synced.tome()).add(synced.id());
        }
        return done[0];
    }

    /** Puts back an entry whose fsync failed, to be retried by a later round. */
    public void retryLater(Pending failed) {
        if (pending.containsKey(failed.id())) {
            orderOf(failed.tome()).add(failed.id());
        }
    }

    /**
     * Marks an entry taken by {@link #takeBatch} not durable (its fsync failed, or its file was gone)
     * and puts it back for a later round, which must rewrite it; a no-op if it was removed since.
     */
    public void markNotDurable(Pending failed) {
        boolean[] kept = {false};
        pending.computeIfPresent(failed.id(), (id, current) -> {
            if (current.life() != failed.life()) {
                return current;
            }
            kept[0] = true;
            return new Pending(current.tome(), id, current.bytes(), current.newFile(), current.queuedAtNanos(),
                    current.life(), true);
        });
        if (kept[0]) {
            orderOf(failed.tome()).add(failed.id());
        }
    }

    /**
     * After a failed sync of a tome's whole file system: marks the batch's entries as {@link #markNotDurable}
     * does, and every other pending entry of the tome not durable where it waits in the queue, as the
     * failure may have dropped any of their pages.
     */
    public void markTomeNotDurable(Tome tome, List<Pending> batch) {
        for (Pending p : batch) {
            markNotDurable(p);
        }
        pending.replaceAll((id, current) -> current.tome() != tome || current.notDurable() ? current
                : new Pending(current.tome(), id, current.bytes(), current.newFile(), current.queuedAtNanos(),
                        current.life(), true));
    }

    /** Whether this entry (this life of its shard) is still pending. */
    public boolean isPending(Pending p) {
        Pending current = pending.get(p.id());
        return current != null && current.life() == p.life();
    }

    /** Whether the shard has bytes waiting for their fsync (the scrubber leaves it alone). */
    public boolean contains(ShardId id) {
        return pending.containsKey(id);
    }

    /** Forgets a shard (it was deleted); true if it was pending. */
    public boolean discard(ShardId id) {
        Pending removed = pending.remove(id);
        if (removed != null) {
            unflushedBytes.addAndGet(-removed.bytes());
            return true;
        }
        return false;
    }

    public long unflushedBytes() {
        return unflushedBytes.get();
    }

    public int size() {
        return pending.size();
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }
}
