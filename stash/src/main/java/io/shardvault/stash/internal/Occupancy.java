package io.shardvault.stash.internal;

import io.shardvault.stash.api.StashEntryInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the stash holds, in memory: entry and byte counts, and, per pod slot, how many entries
 * were written in each millisecond (so the slot's oldest entry is the smallest key). Rebuilt from
 * the meta column family at open; afterwards changed only by the {@link GroupCommitter}s (one per
 * partition), after each write.
 *
 * <p>Thread-safe: one writer per partition, any number of readers (gauges, STATS, the age
 * check). Memory is per distinct (slot, millisecond), not per entry.
 */
public final class Occupancy {
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final ConcurrentHashMap<Integer, Map<Integer, SlotAges>> vaults = new ConcurrentHashMap<>();

    /** A pod slot and the write time of its oldest entry. */
    public record SlotOldest(int vaultId, int shardIndex, long oldestWrittenAtMillis) {
    }

    /** Counts what the stores (a stash's partitions) hold, scanning their metas (never their chunks). */
    public static Occupancy load(List<? extends ShardStore> stores) throws ShardStoreException {
        Occupancy occupancy = new Occupancy();
        for (ShardStore store : stores) {
            store.forEachMeta(occupancy::added);
        }
        return occupancy;
    }

    public long entries() {
        return entries.get();
    }

    public long bytes() {
        return bytes.get();
    }

    void added(StashEntryInfo info) {
        entries.incrementAndGet();
        bytes.addAndGet(info.length());
        slot(info.id().vaultId(), info.id().shardIndex()).add(info.writtenAtMillis());
    }

    void removed(StashEntryInfo info) {
        entries.decrementAndGet();
        bytes.addAndGet(-info.length());
        slot(info.id().vaultId(), info.id().shardIndex()).remove(info.writtenAtMillis());
    }

    /** The write time of the oldest entry of every slot that holds any. */
    public List<SlotOldest> oldestBySlot() {
        List<SlotOldest> out = new ArrayList<>();
        for (Map.Entry<Integer, Map<Integer, SlotAges>> vault : vaults.entrySet()) {
            Map<Integer, SlotAges> shards = vault.getValue();
            synchronized (shards) {
                for (Map.Entry<Integer, SlotAges> shard : shards.entrySet()) {
                    long oldest = shard.getValue().oldest();
                    if (oldest != Long.MAX_VALUE) {
                        out.add(new SlotOldest(vault.getKey(), shard.getKey(), oldest));
                    }
                }
            }
        }
        return out;
    }

    /** The write time of the oldest entry of all, or {@link Long#MAX_VALUE} when empty. */
    public long oldestWrittenAtMillis() {
        long oldest = Long.MAX_VALUE;
        for (SlotOldest slot : oldestBySlot()) {
            oldest = Math.min(oldest, slot.oldestWrittenAtMillis());
        }
        return oldest;
    }

    private SlotAges slot(int vaultId, int shardIndex) {
        Map<Integer, SlotAges> shards = vaults.computeIfAbsent(vaultId, v -> new HashMap<>());
        synchronized (shards) {
            return shards.computeIfAbsent(shardIndex, s -> new SlotAges());
        }
    }

    /** Entry counts by write millisecond, for one slot. */
    private static final class SlotAges {
        private final TreeMap<Long, int[]> countsByMillis = new TreeMap<>();

        synchronized void add(long millis) {
            countsByMillis.computeIfAbsent(millis, m -> new int[1])[0]++;
        }

        synchronized void remove(long millis) {
            int[] count = countsByMillis.get(millis);
            if (count != null && --count[0] <= 0) {
                countsByMillis.remove(millis);
            }
        }

        synchronized long oldest() {
            return countsByMillis.isEmpty() ? Long.MAX_VALUE : countsByMillis.firstKey();
        }
    }
}
