package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/**
 * {@code io.shardvault:type=Repair,name=repair}: the catalog's repair queue of degraded files and this
 * coordinator's repairs (issue #20). The gauges are those of the repair worker's last pass over the queue.
 */
@Description("Repair of degraded files: the queue (as of the last pass) and this coordinator's repairs.")
public interface RepairMXBean {
    @Description("Whether this coordinator repairs now (repair.enabled, and its catalog peer leads).")
    boolean isRepairingHere();

    @Description("Files in the repair queue.")
    long getDegradedFiles();

    @Description("Bytes of the files in the repair queue.")
    long getDegradedBytes();

    @Description("Age in seconds of the oldest queued damage (0 when the queue is empty).")
    long getOldestQueuedAgeSeconds();

    @Description("Shards this coordinator rebuilt and wrote durably since it started.")
    long getShardsRepaired();

    @Description("Shard bytes this coordinator rebuilt and wrote durably since it started.")
    long getBytesRepaired();

    @Description("File repairs that failed since start (each file stays queued and is retried after a backoff).")
    long getRepairFailures();

    @Description("Queued files dropped because nothing refers to them any more (deleted meanwhile).")
    long getDroppedFiles();

    @Description("The first queued files, in queue order (vault, then file id).")
    RepairTaskView[] queued(@Description(value = "How many, 1 to 10000.", name = "limit") int limit);
}
