package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.PodView;
import io.shardvault.coordinator.admin.VaultMXBean;
import io.shardvault.coordinator.admin.VaultView;

/** The Vault MXBean of the probe's vault. Thread-safe. */
public final class VaultBean implements VaultMXBean {
    private final ClusterProbe probe;

    public VaultBean(ClusterProbe probe) {
        this.probe = probe;
    }

    @Override
    public int getVaultId() {
        return probe.vault().vaultId();
    }

    @Override
    public String getLayout() {
        return probe.vault().layout().k() + "+" + probe.vault().layout().m();
    }

    @Override
    public VaultView getSummary() {
        return probe.vaultView(probe.pods());
    }

    @Override
    public PodView[] getPods() {
        return probe.pods().toArray(PodView[]::new);
    }
}
