package io.shardvault.coordinator.admin;

/**
 * The stash's backlog for one pod slot (vault, shard index): the chunks kept for it that its pod
 * has not reported fsynced yet, counted from the stash's LIST pages. Immutable.
 */
public final class SlotBacklogView {
    private final int vaultId;
    private final int shardIndex;
    private final String stashServer;
    private final long entries;
    private final long bytes;
    private final long oldestEntryAgeMillis;
    private final boolean complete;
    private final String error;

    public SlotBacklogView(int vaultId, int shardIndex, String stashServer, long entries, long bytes,
                           long oldestEntryAgeMillis, boolean complete, String error) {
        this.vaultId = vaultId;
        this.shardIndex = shardIndex;
        this.stashServer = stashServer;
        this.entries = entries;
        this.bytes = bytes;
        this.oldestEntryAgeMillis = oldestEntryAgeMillis;
        this.complete = complete;
        this.error = error;
    }

    public int getVaultId() {
        return vaultId;
    }

    public int getShardIndex() {
        return shardIndex;
    }

    /** The stash server holding this slot's copies (rendezvous hashing). */
    public String getStashServer() {
        return stashServer;
    }

    public long getEntries() {
        return entries;
    }

    public long getBytes() {
        return bytes;
    }

    public long getOldestEntryAgeMillis() {
        return oldestEntryAgeMillis;
    }

    /** False when the count stopped at the listing cap (the backlog is at least this) or failed. */
    public boolean isComplete() {
        return complete;
    }

    public String getError() {
        return error;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static SlotBacklogView from(javax.management.openmbean.CompositeData cd) {
        return new SlotBacklogView((Integer) cd.get("vaultId"),
                (Integer) cd.get("shardIndex"),
                (String) cd.get("stashServer"),
                (Long) cd.get("entries"),
                (Long) cd.get("bytes"),
                (Long) cd.get("oldestEntryAgeMillis"),
                (Boolean) cd.get("complete"),
                (String) cd.get("error"));
    }
}
