package io.shardvault.coordinator.admin;

/**
 * One pod as the console shows it: its operator state from the catalog, and what its STATS RPC
 * answered just now ({@code reachable} false, the numbers -1 and no failed tomes when it did not).
 * Immutable.
 */
public final class PodView {
    private final int vaultId;
    private final int shardIndex;
    private final String address;
    private final String state;
    private final String stateSince;
    private final boolean reachable;
    private final long unflushedBytes;
    private final long purgeQueueDepth;
    private final long oldestPurgeAgeMillis;
    private final long usableBytes;
    private final FailedTomeView[] failedTomes;
    private final ScrubView scrub;
    private final String error;

    public PodView(int vaultId, int shardIndex, String address, String state, String stateSince, boolean reachable,
                   long unflushedBytes, long purgeQueueDepth, long oldestPurgeAgeMillis, long usableBytes,
                   FailedTomeView[] failedTomes, ScrubView scrub, String error) {
        this.vaultId = vaultId;
        this.shardIndex = shardIndex;
        this.address = address;
        this.state = state;
        this.stateSince = stateSince;
        this.reachable = reachable;
        this.unflushedBytes = unflushedBytes;
        this.purgeQueueDepth = purgeQueueDepth;
        this.oldestPurgeAgeMillis = oldestPurgeAgeMillis;
        this.usableBytes = usableBytes;
        this.failedTomes = failedTomes.clone();
        this.scrub = scrub;
        this.error = error;
    }

    public int getVaultId() {
        return vaultId;
    }

    public int getShardIndex() {
        return shardIndex;
    }

    public String getAddress() {
        return address;
    }

    /** UP, DRAINING or DOWN. */
    public String getState() {
        return state;
    }

    /** When the state was set (ISO-8601), empty for a pod never marked. */
    public String getStateSince() {
        return stateSince;
    }

    public boolean isReachable() {
        return reachable;
    }

    public long getUnflushedBytes() {
        return unflushedBytes;
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

    /** The pod's failed tomes, in tome order; empty while all are healthy or when it did not answer. */
    public FailedTomeView[] getFailedTomes() {
        return failedTomes.clone();
    }

    /** The pod's scrubber: its pass, position and last complete pass ({@link ScrubView#NONE} when unreported). */
    public ScrubView getScrub() {
        return scrub;
    }

    /** Why it is unreachable, empty when reachable. */
    public String getError() {
        return error;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static PodView from(javax.management.openmbean.CompositeData cd) {
        return new PodView((Integer) cd.get("vaultId"),
                (Integer) cd.get("shardIndex"),
                (String) cd.get("address"),
                (String) cd.get("state"),
                (String) cd.get("stateSince"),
                (Boolean) cd.get("reachable"),
                (Long) cd.get("unflushedBytes"),
                (Long) cd.get("purgeQueueDepth"),
                (Long) cd.get("oldestPurgeAgeMillis"),
                (Long) cd.get("usableBytes"),
                java.util.Arrays.stream((javax.management.openmbean.CompositeData[]) cd.get("failedTomes"))
                        .map(FailedTomeView::from).toArray(FailedTomeView[]::new),
                ScrubView.from((javax.management.openmbean.CompositeData) cd.get("scrub")),
                (String) cd.get("error"));
    }
}
