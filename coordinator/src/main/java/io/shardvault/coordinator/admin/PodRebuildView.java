package io.shardvault.coordinator.admin;

import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.repair.PodRebuildWorker;

/** One pod rebuild job and its progress, as the admin console shows it. Immutable. */
public final class PodRebuildView {
    private final int vaultId;
    private final int shardIndex;
    private final long jobId;
    private final String target;
    private final String source;
    private final String mode;
    private final String state;
    private final boolean runningHere;
    private final long position;
    private final long filesDone;
    private final long filesTotal;
    private final long shardsRebuilt;
    private final long bytesRebuilt;
    private final long failures;
    private final long bytesPerSecond;
    private final double filesPerSecond;
    private final long etaSeconds;
    private final long startedAtMillis;
    private final long updatedAtMillis;

    public PodRebuildView(int vaultId, int shardIndex, long jobId, String target, String source, String mode, String state,
                          boolean runningHere, long position, long filesDone, long filesTotal, long shardsRebuilt,
                          long bytesRebuilt, long failures, long bytesPerSecond, double filesPerSecond,
                          long etaSeconds, long startedAtMillis, long updatedAtMillis) {
        this.vaultId = vaultId;
        this.shardIndex = shardIndex;
        this.jobId = jobId;
        this.target = target;
        this.source = source;
        this.mode = mode;
        this.state = state;
        this.runningHere = runningHere;
        this.position = position;
        this.filesDone = filesDone;
        this.filesTotal = filesTotal;
        this.shardsRebuilt = shardsRebuilt;
        this.bytesRebuilt = bytesRebuilt;
        this.failures = failures;
        this.bytesPerSecond = bytesPerSecond;
        this.filesPerSecond = filesPerSecond;
        this.etaSeconds = etaSeconds;
        this.startedAtMillis = startedAtMillis;
        this.updatedAtMillis = updatedAtMillis;
    }

    public static PodRebuildView of(PodRebuildWorker.Progress p) {
        PodRebuildJob j = p.job();
        return new PodRebuildView(j.vaultId(), j.shardIndex(), j.jobId(), j.targetHost() + ":" + j.targetPort(),
                j.copies() ? j.sourceHost() + ":" + j.sourcePort() : "",
                j.checkOnly() ? "check" : j.copies() ? "decommission" : "rebuild", j.state().name(), p.runningHere(), j.position(), j.filesDone(),
                j.filesTotal(), j.shardsRebuilt(), j.bytesRebuilt(), j.failures(), p.bytesPerSecond(),
                p.filesPerSecond(), p.etaSeconds(), j.startedAt().toEpochMilli(), j.updatedAt().toEpochMilli());
    }

    public int getVaultId() {
        return vaultId;
    }

    public int getShardIndex() {
        return shardIndex;
    }

    public long getJobId() {
        return jobId;
    }

    /** The pod's address when the job started, host:port. */
    public String getTarget() {
        return target;
    }

    /** A decommission's source, host:port: the retired pod it copies from; empty for a rebuild. */
    public String getSource() {
        return source;
    }

    /**
     * {@code rebuild} (decodes from the other pods), {@code decommission} (copies from the source) or
     * {@code check} (counts what is missing, writes nothing).
     */
    public String getMode() {
        return mode;
    }

    /** RUNNING or DONE. */
    public String getState() {
        return state;
    }

    public boolean isRunningHere() {
        return runningHere;
    }

    /** The last file id done (-1 before the first). */
    public long getPosition() {
        return position;
    }

    public long getFilesDone() {
        return filesDone;
    }

    /** The cluster's live files when the job started: an estimate of its length. */
    public long getFilesTotal() {
        return filesTotal;
    }

    /** Shards found missing (and rebuilt, unless a check). */
    public long getShardsRebuilt() {
        return shardsRebuilt;
    }

    public long getBytesRebuilt() {
        return bytesRebuilt;
    }

    /** Shards that could not be rebuilt (queued for repair instead). */
    public long getFailures() {
        return failures;
    }

    /** Rebuilt bytes per second since the job started. */
    public long getBytesPerSecond() {
        return bytesPerSecond;
    }

    /** Files walked per second since the job started. */
    public double getFilesPerSecond() {
        return filesPerSecond;
    }

    /** The time left at that pace, in seconds; -1 when unknown. */
    public long getEtaSeconds() {
        return etaSeconds;
    }

    public long getStartedAtMillis() {
        return startedAtMillis;
    }

    /** When the job was last checkpointed (or, while it runs here, now). */
    public long getUpdatedAtMillis() {
        return updatedAtMillis;
    }
}
