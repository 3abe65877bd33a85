package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Stash,name=stash}: the stash servers and the backlog per pod slot. */
@Description("The stash: occupancy per server and backlog per pod slot (chunks waiting for their pod's fsync).")
public interface StashMXBean {
    @Description("Every stash server: entries, bytes, capacity and oldest entry age (asked now).")
    StashServerView[] getServers();

    @Description("Per pod slot (vault, shard index): entries, bytes and oldest age still held for it (listed now).")
    SlotBacklogView[] getSlots();

    @Description("Asks every pod of a vault to retry its purge deliveries at once; returns how many pods acknowledged.")
    int retryPurgesNow(@Description(value = "The vault whose pods should retry.", name = "vaultId") int vaultId);
}
