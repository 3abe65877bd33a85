package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * The rebuild of one pod of a vault (issue #20, section 3), as the catalog keeps it: which pod, onto
 * which address, from where, how far it got and what it did. A rebuild decodes each missing shard from
 * the vault's other pods; a <em>decommission</em> (a rebuild with a {@linkplain #copies() source}) copies
 * it from the pod being retired, which still serves, onto its replacement, and decodes only what the
 * source cannot give. One row per pod; starting a new rebuild replaces a
 * finished one. The row is the job's checkpoint: whichever coordinator leads the catalog resumes a
 * {@link State#RUNNING} job after {@link #position()}.
 *
 * @param vaultId the pod's vault
 * @param shardIndex the pod's shard index
 * @param jobId this job's id (the catalog log index of its start): a checkpoint of another job is refused
 * @param targetHost the pod's address when the job started
 * @param targetPort its port
 * @param sourceHost for a decommission, the retired pod's address it copies from; empty for a rebuild
 * @param sourcePort its port; 0 for a rebuild
 * @param checkOnly whether the job only counts what is missing and writes nothing
 * @param state where the job is
 * @param position the last file id done, in file id order; -1 before the first
 * @param filesDone live files walked so far
 * @param shardsRebuilt shards found missing (and, unless {@code checkOnly}, rebuilt)
 * @param bytesRebuilt shard bytes written
 * @param failures files whose shard could not be rebuilt (queued for repair instead)
 * @param filesTotal the live files of the cluster when the job started: an estimate of its length
 * @param startedAt the leader time of its start
 * @param updatedAt the leader time of its last checkpoint
 */
public record PodRebuildJob(int vaultId, int shardIndex, long jobId, String targetHost, int targetPort,
                            String sourceHost, int sourcePort, boolean checkOnly, State state, long position, long filesDone, long shardsRebuilt,
                            long bytesRebuilt, long failures, long filesTotal, Instant startedAt,
                            Instant updatedAt) {
    /**
     * Where a job is.
     *
     * <pre>
     *  start ──▶ RUNNING ──(walked every file)──▶ DONE
     *               └──(a new start of the same pod while it runs is refused: CONFLICT)
     * </pre>
     */
    public enum State {
        RUNNING(0),
        DONE(1);

        private final int wire;

        State(int wire) {
            this.wire = wire;
        }

        /** The stable catalog code. */
        public int wire() {
            return wire;
        }

        public static State ofWire(int code) {
            for (State s : values()) {
                if (s.wire == code) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown pod rebuild state " + code);
        }
    }

    public PodRebuildJob {
        Objects.requireNonNull(targetHost, "targetHost");
        Objects.requireNonNull(sourceHost, "sourceHost");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (position < -1 || filesDone < 0 || shardsRebuilt < 0 || bytesRebuilt < 0 || failures < 0) {
            throw new IllegalArgumentException("negative progress in pod rebuild " + vaultId + "/" + shardIndex);
        }
    }

    /** This job after one more checkpoint: its position and counters as given, the rest unchanged. */
    public PodRebuildJob progressed(State newState, long newPosition, long newFilesDone, long newShardsRebuilt,
                                    long newBytesRebuilt, long newFailures) {
        return new PodRebuildJob(vaultId, shardIndex, jobId, targetHost, targetPort, sourceHost, sourcePort,
                checkOnly, newState, newPosition, newFilesDone, newShardsRebuilt, newBytesRebuilt, newFailures,
                filesTotal, startedAt, updatedAt);
    }

    /** Whether this is a decommission: shards are copied from {@link #sourceHost()}:{@link #sourcePort()}. */
    public boolean copies() {
        return !sourceHost.isEmpty();
    }
}
