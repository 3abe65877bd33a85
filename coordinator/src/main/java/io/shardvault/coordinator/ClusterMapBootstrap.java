package io.shardvault.coordinator;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.ConfigException;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogMember;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.MapRegistration;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.StashInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.pod.api.PodSlot;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a coordinator learns the cluster map, and how {@code shardvault init --map} registers one. The
 * catalog is the one source: pods, stash servers and coordinators all take the map from it.
 * <ul>
 *   <li>{@link #init}: a map file's text, registered with the catalog's one command
 *       ({@link Catalog#registerClusterMap}), its catalog peers checked against the Raft group's;</li>
 *   <li>{@link #learn}: at a coordinator's start. Settings that hold a map register it through that same command
 *       first (a single-node {@code bin/shardvault dev} cluster bootstraps so), and a disagreement refuses
 *       the start; settings without one wait, bounded, until {@code shardvault init} registered it.</li>
 * </ul>
 * Stateless.
 */
final class ClusterMapBootstrap {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMapBootstrap.class);
    /** One catalog call: a write waits out an election. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** How often a coordinator waiting for the map asks the catalog again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private ClusterMapBootstrap() {
    }

    /**
     * The cluster map as a coordinator serves it: the catalog's vault (pod addresses as the catalog has them,
     * a decommission moves them there), its stash servers in catalog order, and every pod by slot.
     */
    record Learned(Vault vault, List<InetSocketAddress> stashServers, Map<PodSlot, InetSocketAddress> podsBySlot) {
    }

    /**
     * The catalog's map, after registering the settings' map, if they hold one.
     *
     * @param settingsSource where the settings came from, for the refusal's message
     * @throws ConfigException when the settings' map disagrees with the catalog's
     * @throws IOException when the catalog does not answer, or holds no map within {@code wait}
     */
    static Learned learn(Catalog catalog, CoordinatorConfig config, String settingsSource, Duration wait)
            throws IOException {
        if (config.map().isPresent()) {
            MapRegistration done;
            try {
                done = await(register(catalog, config.map().get()), "registering the settings' cluster map");
            } catch (CatalogException e) {
                if (e.code() == ErrorCode.CONFLICT) {
                    throw new ConfigException("the cluster map in " + settingsSource + " (coordinator.vault.*, "
                            + "coordinator.stash.servers) is not the catalog's, which every service follows: "
                            + e.getMessage() + ". Make the settings match the catalog, or remove them to take the "
                            + "catalog's map (docs/DEPLOYMENT.md)");
                }
                throw new IOException("cannot register the cluster map in the catalog: " + e.getMessage(), e);
            }
            LOG.info("cluster map from {}: {}", settingsSource, done.changed()
                    ? "registered in the catalog" : "the catalog holds it already");
            done.notes().forEach(n -> LOG.info("cluster map: {}", n));
        }
        VaultInfo vault = awaitVault(catalog, config.vaultId(), wait);
        List<InetSocketAddress> stashServers = new ArrayList<>();
        for (StashInfo s : read(catalog.listStashes(), "stash servers")) {
            stashServers.add(new InetSocketAddress(s.host(), s.port()));
        }
        Map<PodSlot, InetSocketAddress> bySlot = new HashMap<>();
        for (VaultInfo v : read(catalog.listVaults(), "vaults")) {
            for (PodInfo p : v.pods()) {
                bySlot.put(new PodSlot(p.vaultId(), p.shardIndex()), new InetSocketAddress(p.host(), p.port()));
            }
        }
        return new Learned(ClusterMapConfig.vaultOf(vault), stashServers, bySlot);
    }

    /**
     * {@code shardvault init --map}: registers the map in {@code mapText}, then compares its catalog peers
     * with the group's membership (which only {@code admin catalog add-peer/remove-peer} changes).
     *
     * @throws IllegalArgumentException when the text is not a valid cluster map
     */
    static CompletableFuture<List<String>> init(CatalogServer server, String mapText) {
        ClusterMapConfig map;
        try {
            map = ClusterMapConfig.parse(mapText, "the cluster map");
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        return register(server.catalog(), map).thenCompose(done -> server.members().thenApply(members -> {
            List<String> lines = new ArrayList<>();
            lines.add(done.changed() ? "registered the cluster map in the catalog"
                    : "the catalog holds this cluster map already: nothing changed");
            lines.addAll(done.notes());
            lines.add(comparePeers(map.catalogPeers(), members));
            return lines;
        }));
    }

    private static CompletableFuture<MapRegistration> register(Catalog catalog, ClusterMapConfig map) {
        return catalog.registerClusterMap(map.vaults(), map.stashes());
    }

    private static String comparePeers(List<CatalogConfig.Peer> mapped, List<CatalogMember> members) {
        TreeSet<String> inMap = new TreeSet<>();
        mapped.forEach(p -> inMap.add(p.id() + "=" + p.address()));
        TreeSet<String> inGroup = new TreeSet<>();
        members.forEach(m -> inGroup.add(m.id() + "=" + m.address()));
        if (inMap.isEmpty()) {
            return "the map names no catalog.peers: the catalog group (" + inGroup + ") was not checked";
        }
        if (inMap.equals(inGroup)) {
            return "catalog peers as in the map: " + inGroup;
        }
        return "catalog peers DIFFER: the map has " + inMap + ", the catalog group " + inGroup + "; change the"
                + " group with admin catalog add-peer/remove-peer and keep catalog.peers in step";
    }

    /** Waits until the catalog holds vault {@code vaultId}, saying once that it waits and for what. */
    private static VaultInfo awaitVault(Catalog catalog, int vaultId, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        boolean said = false;
        while (true) {
            Optional<VaultInfo> held = read(catalog.listVaults(), "vaults").stream()
                    .filter(v -> v.vaultId() == vaultId).findFirst();
            if (held.isPresent()) {
                if (said) {
                    LOG.info("the catalog holds the cluster map now (vault {}): starting", vaultId);
                }
                return held.get();
            }
            if (!said) {
                LOG.warn("the catalog holds no cluster map (vault {}) and the settings name none: waiting up to {} s"
                        + " for shardvault init --map FILE (docs/DEPLOYMENT.md)", vaultId, wait.toSeconds());
                said = true;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("the catalog holds no cluster map (vault " + vaultId + ") after "
                        + wait.toSeconds() + " s: register it with shardvault init --map FILE (docs/DEPLOYMENT.md)"
                        + ", or name it in this coordinator's settings");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the cluster map", e);
            }
        }
    }

    private static <T> T read(CompletableFuture<T> read, String what) throws IOException {
        try {
            return await(read, "reading the " + what + " of the catalog's cluster map");
        } catch (CatalogException e) {
            throw new IOException("cannot read the " + what + " of the catalog's cluster map: " + e.getMessage(), e);
        }
    }

    /** The future's value; its catalog failure as such; anything else as an IOException naming {@code what}. */
    private static <T> T await(CompletableFuture<T> f, String what) throws IOException, CatalogException {
        try {
            return f.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CatalogException c) {
                throw c;
            }
            throw new IOException(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(what + " did not finish within " + CALL_TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + what, e);
        }
    }
}
