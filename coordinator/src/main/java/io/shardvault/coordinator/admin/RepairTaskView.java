package io.shardvault.coordinator.admin;

import io.shardvault.coordinator.catalog.RepairTask;
import java.util.stream.Collectors;

/** One file of the repair queue, as the admin console shows it. Immutable. */
public final class RepairTaskView {
    private final int vaultId;
    private final long fileId;
    private final String shards;
    private final String reason;
    private final long enqueuedAtMillis;

    public RepairTaskView(int vaultId, long fileId, String shards, String reason, long enqueuedAtMillis) {
        this.vaultId = vaultId;
        this.fileId = fileId;
        this.shards = shards;
        this.reason = reason;
        this.enqueuedAtMillis = enqueuedAtMillis;
    }

    public static RepairTaskView of(RepairTask t) {
        return new RepairTaskView(t.vaultId(), t.fileId(),
                t.shards().stream().map(String::valueOf).collect(Collectors.joining(",")), t.reason(),
                t.enqueuedAt().toEpochMilli());
    }

    public int getVaultId() {
        return vaultId;
    }

    public long getFileId() {
        return fileId;
    }

    /** The shard indexes to repair, comma-separated. */
    public String getShards() {
        return shards;
    }

    public String getReason() {
        return reason;
    }

    public long getEnqueuedAtMillis() {
        return enqueuedAtMillis;
    }
}
