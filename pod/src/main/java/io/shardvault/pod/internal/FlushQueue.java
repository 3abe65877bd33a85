package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shards written in buffered mode and not yet fsynced, one entry per shard (later writes to a
 * pending shard merge into its entry). Lives in memory: after a crash the stash, not this queue,
 * knows what was unflushed. Its size is bounded by {@code pod.flush.maxUnflushedBytes}: past it,
 * writes are made durable instead of queued.
 *
 * <p>Thread-safe.
 */
public final class FlushQueue {

    /** One shard waiting for its fsync. Immutable: a merge replaces the entry. */
    public record Pending(Tome tome, ShardId id, long bytes, boolean newFile, long queuedAtNanos) {
    }

    private final ConcurrentHashMap<ShardId, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong unflushedBytes = new AtomicLong();
    private final long wakeBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();

    /** @param wakeBytes unflushed bytes at which the flusher is woken before its interval ends */
    public FlushQueue(long wakeBytes) {
        this.wakeBytes = wakeBytes;
    }

    public void add(Tome tome, ShardId id, long bytes, boolean newFile) {
        long now = System.nanoTime();
        pending.merge(id, new Pending(tome, id, bytes, newFile, now),
                (old, add) -> new Pending(tome, id, old.bytes() + bytes, old.newFile() || newFile, old.queuedAtNanos()));
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

    /** The pending entries grouped by tome, at most {@code maxPerTome} of each, oldest first. */
    public Map<Tome, List<Pending>> takeBatch(int maxPerTome) {
        Map<Tome, List<Pending>> byTome = new HashMap<>();
        for (Pending p : pending.values()) {
            byTome.computeIfAbsent(p.tome(), t -> new ArrayList<>()).add(p);
        }
        for (Map.Entry<Tome, List<Pending>> e : byTome.entrySet()) {
            List<Pending> list = e.getValue();
            list.sort((a, b) -> Long.compare(a.queuedAtNanos(), b.queuedAtNanos()));
            if (list.size() > maxPerTome) {
                e.setValue(new ArrayList<>(list.subList(0, maxPerTome)));
            }
        }
        return byTome;
    }

    /**
     * Records that {@code synced} (an entry taken by {@link #takeBatch}) is fsynced. Returns true
     * when the shard has nothing left unflushed, so its purge may be queued; false when a write
     * arrived meanwhile (what remains stays queued, and the purge waits for it).
     */
    public boolean complete(Pending synced) {
        boolean[] done = {false};
        pending.computeIfPresent(synced.id(), (id, current) -> {
            if (current == synced) {
                done[0] = true;
                return null;
            }
            return new Pending(current.tome(), id, Math.max(0, current.bytes() - synced.bytes()), false,
                    current.queuedAtNanos());
        });
        unflushedBytes.addAndGet(-synced.bytes());
        return done[0];
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
