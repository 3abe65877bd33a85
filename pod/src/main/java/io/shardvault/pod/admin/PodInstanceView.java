package io.shardvault.pod.admin;

/** One pod instance of a process, from its STATS (-1 when they could not be read). Immutable. */
public final class PodInstanceView {
    private final String name;
    private final String address;
    private final String slots;
    private final long unflushedBytes;
    private final int unflushedShards;
    private final long purgeQueueDepth;
    private final long oldestPurgeAgeMillis;
    private final long usableBytes;

    public PodInstanceView(String name, String address, String slots, long unflushedBytes, int unflushedShards,
                           long purgeQueueDepth, long oldestPurgeAgeMillis, long usableBytes) {
        this.name = name;
        this.address = address;
        this.slots = slots;
        this.unflushedBytes = unflushedBytes;
        this.unflushedShards = unflushedShards;
        this.purgeQueueDepth = purgeQueueDepth;
        this.oldestPurgeAgeMillis = oldestPurgeAgeMillis;
        this.usableBytes = usableBytes;
    }

    public String getName() {
        return name;
    }

    public String getAddress() {
        return address;
    }

    /** The slots it holds, vaultId:shardIndex, comma-separated. */
    public String getSlots() {
        return slots;
    }

    public long getUnflushedBytes() {
        return unflushedBytes;
    }

    public int getUnflushedShards() {
        return unflushedShards;
    }

    public long getPurgeQueueDepth() {
        return purgeQueueDepth;
    }

    public long getOldestPurgeAgeMillis() {
        return oldestPurgeAgeMillis;
    }

    public long getUsableBytes() {
        return usableBytes;
    }

    /** Rebuilds a view from its open data (what MXBean proxies receive). */
    public static PodInstanceView from(javax.management.openmbean.CompositeData cd) {
        return new PodInstanceView((String) cd.get("name"), (String) cd.get("address"), (String) cd.get("slots"),
                (Long) cd.get("unflushedBytes"), (Integer) cd.get("unflushedShards"), (Long) cd.get("purgeQueueDepth"),
                (Long) cd.get("oldestPurgeAgeMillis"), (Long) cd.get("usableBytes"));
    }
}
