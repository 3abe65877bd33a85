package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.CatalogView;
import io.shardvault.coordinator.admin.ClusterMXBean;
import io.shardvault.coordinator.admin.PodView;
import io.shardvault.coordinator.admin.StashServerView;
import io.shardvault.coordinator.admin.VaultView;

/** The Cluster MXBean over a {@link ClusterProbe} and the {@link CatalogBean}. Thread-safe. */
public final class ClusterBean implements ClusterMXBean {
    private final ClusterProbe probe;
    private final CatalogBean catalog;

    public ClusterBean(ClusterProbe probe, CatalogBean catalog) {
        this.probe = probe;
        this.catalog = catalog;
    }

    @Override
    public VaultView[] getVaults() {
        return new VaultView[] {probe.vaultView(probe.pods())};
    }

    @Override
    public PodView[] getPods() {
        return probe.pods().toArray(PodView[]::new);
    }

    @Override
    public StashServerView[] getStashServers() {
        return probe.stashServers().toArray(StashServerView[]::new);
    }

    @Override
    public CatalogView getCatalog() {
        return catalog.view();
    }
}
