package io.shardvault.pod.api;

/** How durable a chunk write is when the pod acknowledges it. */
public enum WriteMode {
    /** Written to the file system, not fsynced; the fsync is queued. The stash holds a synced copy meanwhile. */
    BUFFERED(0),
    /** Fsynced (file, and directory entry for a new file) before the acknowledgement. */
    DURABLE(1);

    private final int wire;

    WriteMode(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static WriteMode fromWire(int wire) {
        for (WriteMode m : values()) {
            if (m.wire == wire) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown write mode " + wire);
    }
}
