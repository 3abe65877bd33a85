package io.shardvault.coordinator.admin;

/** One vault's summary: layout and how many pods are in which state. Immutable. */
public final class VaultView {
    private final int vaultId;
    private final String layout;
    private final int chunkBytes;
    private final int pods;
    private final int podsUp;
    private final int podsDraining;
    private final int podsDown;
    private final int podsUnreachable;
    private final int writeQuorum;
    private final boolean writable;

    public VaultView(int vaultId, String layout, int chunkBytes, int pods, int podsUp, int podsDraining, int podsDown,
                     int podsUnreachable, int writeQuorum, boolean writable) {
        this.vaultId = vaultId;
        this.layout = layout;
        this.chunkBytes = chunkBytes;
        this.pods = pods;
        this.podsUp = podsUp;
        this.podsDraining = podsDraining;
        this.podsDown = podsDown;
        this.podsUnreachable = podsUnreachable;
        this.writeQuorum = writeQuorum;
        this.writable = writable;
    }

    public int getVaultId() {
        return vaultId;
    }

    /** k+m. */
    public String getLayout() {
        return layout;
    }

    public int getChunkBytes() {
        return chunkBytes;
    }

    public int getPods() {
        return pods;
    }

    public int getPodsUp() {
        return podsUp;
    }

    public int getPodsDraining() {
        return podsDraining;
    }

    public int getPodsDown() {
        return podsDown;
    }

    public int getPodsUnreachable() {
        return podsUnreachable;
    }

    public int getWriteQuorum() {
        return writeQuorum;
    }

    /** Whether at least writeQuorum pods are up and reachable. */
    public boolean isWritable() {
        return writable;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static VaultView from(javax.management.openmbean.CompositeData cd) {
        return new VaultView((Integer) cd.get("vaultId"),
                (String) cd.get("layout"),
                (Integer) cd.get("chunkBytes"),
                (Integer) cd.get("pods"),
                (Integer) cd.get("podsUp"),
                (Integer) cd.get("podsDraining"),
                (Integer) cd.get("podsDown"),
                (Integer) cd.get("podsUnreachable"),
                (Integer) cd.get("writeQuorum"),
                (Boolean) cd.get("writable"));
    }
}
