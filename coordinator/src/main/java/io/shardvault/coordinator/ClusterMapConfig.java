package io.shardvault.coordinator;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogConfigKeys;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cluster map as settings spell it (dist's {@code conf/cluster-map.conf}): the vault
 * ({@code coordinator.vault.*}), the stash servers ({@code coordinator.stash.servers}) and the catalog peers
 * ({@code catalog.peers}). The one parser of those keys, for a coordinator's settings and for the file
 * {@code shardvault init --map} sends alike. Immutable.
 *
 * @param vault        the vault with its pods, in shard order
 * @param stashServers the stash servers, in map order (empty: no stash)
 * @param catalogPeers the catalog peers the map names; empty when it names none
 */
public record ClusterMapConfig(Vault vault, List<InetSocketAddress> stashServers, List<CatalogConfig.Peer> catalogPeers) {

    public ClusterMapConfig {
        Objects.requireNonNull(vault, "vault");
        stashServers = List.copyOf(stashServers);
        catalogPeers = List.copyOf(catalogPeers);
    }

    /** Every key a map file may hold. */
    public static List<ConfigKey<?>> keys() {
        return List.of(CoordinatorConfigKeys.VAULT_ID, CoordinatorConfigKeys.VAULT_LAYOUT,
                CoordinatorConfigKeys.VAULT_CHUNK_BYTES, CoordinatorConfigKeys.VAULT_PODS,
                CoordinatorConfigKeys.STASH_SERVERS, CatalogConfigKeys.PEERS);
    }

    /**
     * The map keys that only a map sets. The vault id also names the vault a coordinator writes to, and
     * every coordinator names its catalog peers: neither says that the settings hold a map.
     */
    static List<ConfigKey<?>> mapOnlyKeys() {
        return List.of(CoordinatorConfigKeys.VAULT_LAYOUT, CoordinatorConfigKeys.VAULT_CHUNK_BYTES,
                CoordinatorConfigKeys.VAULT_PODS, CoordinatorConfigKeys.STASH_SERVERS);
    }

    /** Whether {@code s} holds a map: its vault's pods. */
    static boolean isIn(Settings s) {
        return !HostPort.parseList(s.get(CoordinatorConfigKeys.VAULT_PODS)).isEmpty();
    }

    /**
     * The map in {@code s}.
     *
     * @throws IllegalArgumentException when a value is invalid or the pods do not fit the layout
     */
    static ClusterMapConfig from(Settings s) {
        ErasureLayout erasure = ErasureLayout.parse(s.get(CoordinatorConfigKeys.VAULT_LAYOUT));
        int chunk = Math.toIntExact(s.get(CoordinatorConfigKeys.VAULT_CHUNK_BYTES));
        List<InetSocketAddress> pods = HostPort.parseList(s.get(CoordinatorConfigKeys.VAULT_PODS));
        Vault vault = new Vault(s.get(CoordinatorConfigKeys.VAULT_ID), new VaultLayout(erasure, chunk), pods);
        List<CatalogConfig.Peer> peers = s.isSet(CatalogConfigKeys.PEERS.name())
                ? CatalogConfig.parsePeers(s.get(CatalogConfigKeys.PEERS)) : List.of();
        return new ClusterMapConfig(vault, HostPort.parseList(s.get(CoordinatorConfigKeys.STASH_SERVERS)), peers);
    }

    /**
     * The map in a file's text ({@code source} names it in messages): only {@link #keys()}, and a vault
     * with its pods.
     *
     * @throws ConfigException naming what is wrong
     */
    public static ClusterMapConfig parse(String text, String source) {
        Settings s = Settings.parse(text, source);
        s.rejectUnknown(keys());
        if (!isIn(s)) {
            throw new ConfigException(source + " names no pods (" + CoordinatorConfigKeys.VAULT_PODS.name()
                    + "): a cluster map needs its vault's pods");
        }
        try {
            return from(s);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ConfigException("cluster map " + source + ": " + e.getMessage(), e);
        }
    }

    /** The vault as the catalog records it: its row, with every pod. */
    public List<VaultInfo> vaults() {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < vault.pods().size(); i++) {
            InetSocketAddress a = vault.pod(i);
            pods.add(new PodInfo(vault.vaultId(), i, a.getHostString(), a.getPort()));
        }
        VaultInfo row = vaultRow(vault);
        return List.of(new VaultInfo(row.vaultId(), row.layout(), row.capacityBytes(), pods));
    }

    /** The stash servers as the catalog records them: {@code stash-N} for the N-th. */
    public List<StashInfo> stashes() {
        List<StashInfo> out = new ArrayList<>();
        for (int s = 0; s < stashServers.size(); s++) {
            InetSocketAddress a = stashServers.get(s);
            out.add(new StashInfo("stash-" + s, a.getHostString(), a.getPort()));
        }
        return out;
    }

    /** The catalog's row of {@code v}, without its pods (registering it never moves a pod). */
    static VaultInfo vaultRow(Vault v) {
        return new VaultInfo(v.vaultId(), new FileLayout(v.layout().k(), v.layout().m(), v.layout().chunkBytes()),
                Long.MAX_VALUE, List.of());
    }

    /** The data paths' vault from the catalog's record of it (every pod registered). */
    static Vault vaultOf(VaultInfo v) {
        FileLayout l = v.layout();
        List<InetSocketAddress> pods = new ArrayList<>();
        for (PodInfo p : v.pods()) {
            if (p.shardIndex() != pods.size()) {
                throw new IllegalStateException("the catalog's vault " + v.vaultId() + " lacks pod " + pods.size());
            }
            pods.add(new InetSocketAddress(p.host(), p.port()));
        }
        return new Vault(v.vaultId(), new VaultLayout(new ErasureLayout(l.dataShards(), l.parityShards()),
                l.chunkBytes()), pods);
    }
}
