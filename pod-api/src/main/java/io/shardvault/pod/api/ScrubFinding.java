package io.shardvault.pod.api;

import io.shardvault.common.ShardId;
import java.util.Objects;

/**
 * One damaged shard file a pod's scrubber found and holds until a coordinator acknowledges it (op
 * SCRUB_FINDINGS).
 *
 * @param seq the pod's number for the finding, increasing; acknowledgements are "through seq"
 * @param id the damaged shard
 * @param kind what is wrong with it
 * @param foundAtMillis when the scrubber found it, epoch milliseconds
 */
public record ScrubFinding(long seq, ShardId id, Kind kind, long foundAtMillis) {
    /** What a scrub found wrong with a shard file. Wire values are stable. */
    public enum Kind {
        /** A chunk fails its CRC32C, or the file's header is unreadable. */
        CORRUPT(0),
        /** A chunk is gone: the file ends inside a record, or a gap lies between its chunks. */
        MISSING(1);

        private final int wire;

        Kind(int wire) {
            this.wire = wire;
        }

        public int wire() {
            return wire;
        }

        public static Kind fromWire(int wire) {
            for (Kind k : values()) {
                if (k.wire == wire) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown scrub finding kind " + wire);
        }
    }

    public ScrubFinding {
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
    }
}
