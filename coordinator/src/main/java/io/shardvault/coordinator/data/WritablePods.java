package io.shardvault.coordinator.data;

import java.util.Optional;

/**
 * Which pods may receive new shards. A write skips a pod this refuses: that shard of the new file
 * is not written (to the pod nor to the stash) and is recorded as missing, for repair, exactly as
 * if the pod had failed the write; the write still needs its quorum from the other pods, so
 * refusing more than {@code n - writeQuorum} pods of a vault makes writes fail with
 * {@code UNAVAILABLE}. Reads and deletes are not affected.
 *
 * <p>Implementations are thread-safe and answer from memory (they are asked n times per write).
 */
@FunctionalInterface
public interface WritablePods {

    /** Every pod takes new shards. */
    WritablePods ALL = (vaultId, shardIndex) -> Optional.empty();

    /** Why pod {@code shardIndex} of vault {@code vaultId} must get no new shard, or empty when it may. */
    Optional<String> whyNotWritable(int vaultId, int shardIndex);
}
