package io.shardvault.pod.api;

import io.shardvault.common.ShardId;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a pod's scrubber is, as STATS reports it: the pass under way and its position, and the
 * last complete pass with what it found (the figures of the {@code shardvault.pod.scrub.*} gauges).
 * Damage is counted in shard files: a file with any corrupt chunk is corrupt, one with any chunk
 * missing is missing.
 *
 * @param pass the current (or, when idle, the last) pass; 0 before the first
 * @param inPass whether a pass is under way
 * @param passStartMillis when the current pass started, epoch ms; 0 before the first
 * @param position the last shard the current pass checked; empty at its start
 * @param passFiles shard files the current pass checked so far
 * @param passBytes shard bytes the current pass checked so far
 * @param lastEndMillis when the last complete pass ended, epoch ms; 0 if none has
 * @param lastDurationMillis how long the last complete pass took
 * @param lastFiles shard files the last complete pass checked
 * @param lastBytes shard bytes the last complete pass checked
 * @param lastCorrupt files the last complete pass found corrupt
 * @param lastMissing files the last complete pass found with chunks missing
 * @param bytesPerSecond the pod's scrub rate setting ({@code pod.scrub.bytesPerSecond}); 0: scrubbing is off
 * @param heldFindings findings the pod holds that no coordinator has taken yet
 */
public record ScrubStatus(long pass, boolean inPass, long passStartMillis, Optional<ShardId> position, long passFiles,
                          long passBytes, long lastEndMillis, long lastDurationMillis, long lastFiles, long lastBytes,
                          long lastCorrupt, long lastMissing, long bytesPerSecond, int heldFindings) {
    public ScrubStatus {
        Objects.requireNonNull(position, "position");
    }
}
