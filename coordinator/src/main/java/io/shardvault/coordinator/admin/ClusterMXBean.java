package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Cluster,name=cluster}: the whole cluster as this coordinator sees it. */
@Description("The cluster as this coordinator sees it: vaults, pods (state and reachability), stash servers, catalog.")
public interface ClusterMXBean {
    @Description("Every vault: layout and how many pods are up, draining, down or unreachable.")
    VaultView[] getVaults();

    @Description("Every pod: operator state (UP/DRAINING/DOWN), reachability and its STATS, failed tomes and scrubber"
            + " included (asked now).")
    PodView[] getPods();

    @Description("Every stash server: reachability and occupancy (asked now).")
    StashServerView[] getStashServers();

    @Description("This coordinator's catalog peer: role, leader, term, applied index, peers.")
    CatalogView getCatalog();
}
