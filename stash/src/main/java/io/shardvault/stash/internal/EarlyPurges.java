package io.shardvault.stash.internal;

import io.shardvault.common.ShardId;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Ids purged while the stash held no entry for them, remembered for a while so that the PUT that was still
 * on its way is not stored after its purge. A pod purges a stash copy only once its own copy is fsynced, and
 * it can get there first: the coordinator sends a small file's chunks to the stash and to the pods at once,
 * and a pod with a short flush interval flushes and purges before a busy (or cold) stash's group commit has
 * stored the PUT. Stored then, the copy would stay until its file is deleted, since no pod purges it twice.
 * Every other purge also says its id's copy is no longer needed (a repaired shard, a durable resend, an
 * abandoned file), and file ids are never reused, so dropping such a late PUT loses nothing.
 *
 * <p>Bounded: at most {@code maxIds} ids, each for at most {@code maxAgeNanos} (far beyond a PUT's time in
 * flight); past either bound the oldest is forgotten, and its late PUT, if one comes, is stored as before.
 *
 * <p>Not thread-safe: used by a {@link GroupCommitter}'s writer role, which passes between threads under the
 * committer's lock.
 */
final class EarlyPurges {
    private final int maxIds;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    /** Purge time by id, oldest first. */
    private final LinkedHashMap<ShardId, Long> purgedAt = new LinkedHashMap<>();

    EarlyPurges(int maxIds, long maxAgeNanos, LongSupplier nanoClock) {
        if (maxIds < 1 || maxAgeNanos <= 0) {
            throw new IllegalArgumentException("maxIds=" + maxIds + ", maxAgeNanos=" + maxAgeNanos);
        }
        this.maxIds = maxIds;
        this.maxAgeNanos = maxAgeNanos;
        this.nanoClock = nanoClock;
    }

    /** A purge found no entry for {@code id}. */
    void purgedAbsent(ShardId id) {
        long now = nanoClock.getAsLong();
        expire(now);
        purgedAt.remove(id);
        purgedAt.put(id, now);
        if (purgedAt.size() > maxIds) {
            Iterator<?> oldest = purgedAt.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** Whether {@code id} was purged (within the bounds): a PUT of it, even a retried one, comes too late. */
    boolean purged(ShardId id) {
        if (purgedAt.isEmpty()) {
            return false;
        }
        expire(nanoClock.getAsLong());
        return purgedAt.containsKey(id);
    }

    int size() {
        return purgedAt.size();
    }

    private void expire(long now) {
        for (Iterator<Map.Entry<ShardId, Long>> it = purgedAt.entrySet().iterator(); it.hasNext(); ) {
            if (now - it.next().getValue() <= maxAgeNanos) {
                return;
            }
            it.remove();
        }
    }
}
