package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.RepairMXBean;
import io.shardvault.coordinator.admin.RepairTaskView;
import io.shardvault.coordinator.repair.RepairWorker;

/** The Repair MXBean over the coordinator's repair worker. Thread-safe. */
public final class RepairBean implements RepairMXBean {
    private final RepairWorker worker;

    public RepairBean(RepairWorker worker) {
        this.worker = worker;
    }

    @Override
    public boolean isRepairingHere() {
        return worker.status().repairingHere();
    }

    @Override
    public long getDegradedFiles() {
        return worker.status().degradedFiles();
    }

    @Override
    public long getDegradedBytes() {
        return worker.status().degradedBytes();
    }

    @Override
    public long getOldestQueuedAgeSeconds() {
        return worker.status().oldestQueuedAgeSeconds();
    }

    @Override
    public long getShardsRepaired() {
        return worker.status().shardsRepaired();
    }

    @Override
    public long getBytesRepaired() {
        return worker.status().bytesRepaired();
    }

    @Override
    public long getRepairFailures() {
        return worker.status().failures();
    }

    @Override
    public long getDroppedFiles() {
        return worker.status().dropped();
    }

    @Override
    public RepairTaskView[] queued(int limit) {
        return Await.call(() -> worker.queued(limit), "listing the repair queue").stream()
                .map(RepairTaskView::of).toArray(RepairTaskView[]::new);
    }
}
