package io.shardvault.pod.api;

import java.util.List;
import java.util.Optional;

/**
 * A pod instance's state as STATS reports it.
 *
 * @param unflushedBytes bytes acknowledged in buffered mode and not yet fsynced
 * @param unflushedShards shards waiting for the flusher
 * @param purgeQueueDepth purge events queued durably and not yet delivered to the stash
 * @param oldestPurgeAgeMillis age of the oldest undelivered purge event, 0 when none
 * @param tomes the instance's tome count
 * @param usableBytes free bytes summed over the tomes' file systems
 * @param assignment the fingerprint of the instance's {@link PodAssignment}, or
 *     {@link PodAssignment#UNASSIGNED}
 * @param failedTomes tomes marked failed (no writes; their shards' stash copies kept until an operator
 *     clears them), in tome order; none from a pod older than this field
 * @param scrub where the pod's scrubber is; empty from a pod older than this field
 */
public record PodStats(long unflushedBytes, int unflushedShards, long purgeQueueDepth, long oldestPurgeAgeMillis,
                       int tomes, long usableBytes, long assignment, List<FailedTome> failedTomes,
                       Optional<ScrubStatus> scrub) {
    public PodStats {
        failedTomes = List.copyOf(failedTomes);
        java.util.Objects.requireNonNull(scrub, "scrub");
    }
}
