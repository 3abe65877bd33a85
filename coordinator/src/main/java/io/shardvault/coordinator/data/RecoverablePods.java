package io.shardvault.coordinator.data;

/**
 * Which pods could recover a buffered write after a crash: those that accepted their assignment
 * (their slots and the stash servers, op ASSIGN; see {@link PodAssignments}). A small file's chunk
 * for any other pod is written to it durably, with no stash copy, and counts toward the write's
 * quorum as a durable copy. A pod that refuses a buffered write as {@code NOT_RECOVERABLE} (the
 * safety net when this view is stale) gets the chunk again, durably, and is reported through
 * {@link #refusedBuffered}.
 *
 * <p>Implementations are thread-safe and answer from memory (they are asked n times per write).
 */
public interface RecoverablePods {

    /** Every pod: for data paths whose pods all recover (tests that assign every pod up front). */
    RecoverablePods ALL = new RecoverablePods() {
        @Override
        public boolean canRecoverBuffered(int vaultId, int shardIndex) {
            return true;
        }

        @Override
        public void refusedBuffered(int vaultId, int shardIndex) {
        }
    };

    /** Whether pod {@code shardIndex} of vault {@code vaultId} may be sent a buffered write. */
    boolean canRecoverBuffered(int vaultId, int shardIndex);

    /** The pod refused a buffered write as not recoverable: send it none until it is assigned again. */
    void refusedBuffered(int vaultId, int shardIndex);
}
