package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.PodMXBean;
import io.shardvault.coordinator.admin.PodView;
import io.shardvault.coordinator.catalog.PodState;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Pod MXBean of one pod: state changes go to the catalog (through {@link
 * io.shardvault.coordinator.store.CatalogPodStates}, which re-reads them, so this coordinator's next
 * write honours them). Thread-safe.
 */
public final class PodBean implements PodMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(PodBean.class);

    private final ClusterProbe probe;
    private final int shardIndex;

    public PodBean(ClusterProbe probe, int shardIndex) {
        this.probe = probe;
        this.shardIndex = shardIndex;
    }

    @Override
    public int getVaultId() {
        return probe.vault().vaultId();
    }

    @Override
    public int getShardIndex() {
        return shardIndex;
    }

    @Override
    public String getAddress() {
        return ClusterProbe.hostPort(probe.vault().pod(shardIndex));
    }

    @Override
    public String getState() {
        return probe.podStates().status(getVaultId(), shardIndex).state().name();
    }

    @Override
    public boolean isReachable() {
        return getStatus().isReachable();
    }

    @Override
    public PodView getStatus() {
        return probe.pod(shardIndex).join();
    }

    private String set(PodState state) {
        String what = "setting pod " + getVaultId() + "/" + shardIndex + " " + state;
        PodState now = Await.get(probe.podStates().set(getVaultId(), shardIndex, state), what).state();
        LOG.info("operator set pod={}/{} address={} state={}", getVaultId(), shardIndex, getAddress(), now);
        return now.name();
    }

    @Override
    public String markDown() {
        return set(PodState.DOWN);
    }

    @Override
    public String markUp() {
        return set(PodState.UP);
    }

    @Override
    public String drain() {
        return set(PodState.DRAINING);
    }

    @Override
    public String retryPurgesNow() {
        boolean hasStash = Await.get(probe.podClient().retryPurges(probe.vault().pod(shardIndex))
                .orTimeout(ClusterProbe.PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                "asking pod " + getAddress() + " to retry its purges");
        return hasStash ? "retrying" : "the pod runs without a stash: nothing to purge";
    }
}
