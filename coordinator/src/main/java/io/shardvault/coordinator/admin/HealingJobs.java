package io.shardvault.coordinator.admin;

import io.shardvault.coordinator.collect.OrphanCollector;
import io.shardvault.coordinator.repair.PodRebuildWorker;
import io.shardvault.coordinator.repair.RepairWorker;
import java.util.Objects;

/** The background jobs that make data whole again (issue #20), each shown by an MBean of its own. */
public record HealingJobs(RepairWorker repair, OrphanCollector collector, PodRebuildWorker rebuilds) {
    public HealingJobs {
        Objects.requireNonNull(repair, "repair");
        Objects.requireNonNull(collector, "collector");
        Objects.requireNonNull(rebuilds, "rebuilds");
    }
}
