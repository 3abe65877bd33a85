package io.shardvault.pod.api;

import io.shardvault.common.ShardId;
import java.util.Objects;

/**
 * A shard on a pod and how long ago its file was last written, by the pod's own clock.
 *
 * @param id the shard
 * @param ageMillis the pod's wall clock now less the shard file's modification time, {@code >= 0}
 */
public record AgedShard(ShardId id, long ageMillis) {
    public AgedShard {
        Objects.requireNonNull(id, "id");
        if (ageMillis < 0) {
            throw new IllegalArgumentException("ageMillis must be >= 0: " + ageMillis);
        }
    }
}
