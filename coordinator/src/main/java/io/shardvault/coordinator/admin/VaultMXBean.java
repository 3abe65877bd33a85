package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Vault,name=vault-ID}: one vault. */
@Description("One vault: its erasure layout and its pods.")
public interface VaultMXBean {
    @Description("The vault's id.")
    int getVaultId();

    @Description("The erasure layout, k+m.")
    String getLayout();

    @Description("Layout, pod counts per state, write quorum and whether new writes can succeed.")
    VaultView getSummary();

    @Description("The vault's pods in shard order, with state and STATS (asked now).")
    PodView[] getPods();
}
