package io.shardvault.coordinator.admin.internal;

import io.shardvault.common.config.HostPort;
import io.shardvault.coordinator.admin.PodRebuildMXBean;
import io.shardvault.coordinator.admin.PodRebuildView;
import io.shardvault.coordinator.repair.PodRebuildWorker;
import java.net.InetSocketAddress;
import java.time.Instant;

/** The PodRebuild MXBean over the coordinator's pod rebuild worker. Thread-safe. */
public final class PodRebuildBean implements PodRebuildMXBean {
    private final PodRebuildWorker worker;

    public PodRebuildBean(PodRebuildWorker worker) {
        this.worker = worker;
    }

    @Override
    public boolean isRebuildingHere() {
        return worker.rebuildingHere();
    }

    @Override
    public PodRebuildView[] getJobs() {
        return Await.call(worker::jobs, "listing the pod rebuilds").stream().map(PodRebuildView::of)
                .toArray(PodRebuildView[]::new);
    }

    @Override
    public PodRebuildView rebuild(int vaultId, int shardIndex, boolean checkOnly) {
        return PodRebuildView.of(PodRebuildWorker.progress(Await.call(() -> worker.start(vaultId, shardIndex, checkOnly),
                "starting the rebuild of pod " + shardIndex + " in vault " + vaultId), false, Instant.now()));
    }

    @Override
    public PodRebuildView decommission(int vaultId, int shardIndex, String to) {
        InetSocketAddress onto = HostPort.parse(to);
        return PodRebuildView.of(PodRebuildWorker.progress(Await.call(() -> worker.decommission(vaultId, shardIndex,
                onto), "starting the decommission of pod " + shardIndex + " in vault " + vaultId + " onto " + to), false,
                Instant.now()));
    }
}
