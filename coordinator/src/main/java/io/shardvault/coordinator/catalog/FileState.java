package io.shardvault.coordinator.catalog;

/**
 * What the catalog says of a file id, for the orphan collector (issue #20, section 5). The wire
 * value of each state is stable.
 */
public enum FileState {
    /** No version, part or upload refers to it, nor did one ever (or its release is done): an orphan if it has shards. */
    ABSENT(0),
    /** A version, a part or an upload refers to it. */
    LIVE(1),
    /** Its last reference went; it is queued for the file reaper, which deletes its shards. Not the collector's. */
    RELEASED(2),
    /** Fenced by the collector: no commit can refer to it any more, and its shards may go. */
    COLLECTED(3);

    private final int wire;

    FileState(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static FileState fromWire(int wire) {
        for (FileState s : values()) {
            if (s.wire == wire) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown file state " + wire);
    }
}
