package io.shardvault.coordinator.admin;

/** One stash server's occupancy from its STATS RPC (-1 and reachable false when it did not answer). Immutable. */
public final class StashServerView {
    private final String stashId;
    private final String address;
    private final boolean reachable;
    private final long entries;
    private final long bytes;
    private final long capacityBytes;
    private final long oldestEntryAgeMillis;
    private final String error;

    public StashServerView(String stashId, String address, boolean reachable, long entries, long bytes,
                           long capacityBytes, long oldestEntryAgeMillis, String error) {
        this.stashId = stashId;
        this.address = address;
        this.reachable = reachable;
        this.entries = entries;
        this.bytes = bytes;
        this.capacityBytes = capacityBytes;
        this.oldestEntryAgeMillis = oldestEntryAgeMillis;
        this.error = error;
    }

    public String getStashId() {
        return stashId;
    }

    public String getAddress() {
        return address;
    }

    public boolean isReachable() {
        return reachable;
    }

    public long getEntries() {
        return entries;
    }

    public long getBytes() {
        return bytes;
    }

    public long getCapacityBytes() {
        return capacityBytes;
    }

    public long getOldestEntryAgeMillis() {
        return oldestEntryAgeMillis;
    }

    public String getError() {
        return error;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static StashServerView from(javax.management.openmbean.CompositeData cd) {
        return new StashServerView((String) cd.get("stashId"),
                (String) cd.get("address"),
                (Boolean) cd.get("reachable"),
                (Long) cd.get("entries"),
                (Long) cd.get("bytes"),
                (Long) cd.get("capacityBytes"),
                (Long) cd.get("oldestEntryAgeMillis"),
                (String) cd.get("error"));
    }
}
