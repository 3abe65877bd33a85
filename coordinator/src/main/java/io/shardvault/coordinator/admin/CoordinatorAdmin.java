package io.shardvault.coordinator.admin;

import io.shardvault.common.config.Settings;
import io.shardvault.common.jmx.JmxRemoteConfig;
import io.shardvault.common.jmx.JmxRemoteServer;
import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.coordinator.admin.internal.AccessKeysBean;
import io.shardvault.coordinator.admin.internal.AccountsBean;
import io.shardvault.coordinator.admin.internal.BucketsBean;
import io.shardvault.coordinator.admin.internal.CatalogBean;
import io.shardvault.coordinator.admin.internal.ClusterBean;
import io.shardvault.coordinator.admin.internal.ClusterProbe;
import io.shardvault.coordinator.admin.internal.CollectBean;
import io.shardvault.coordinator.admin.internal.PodBean;
import io.shardvault.coordinator.admin.internal.PodRebuildBean;
import io.shardvault.coordinator.admin.internal.RepairBean;
import io.shardvault.coordinator.admin.internal.StashBean;
import io.shardvault.coordinator.admin.internal.VaultBean;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.store.CatalogPodStates;
import io.shardvault.pod.api.PodClient;
import io.shardvault.stash.api.StashClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's JMX console: registers its MXBeans and, when {@code jmx.remote.enabled}, serves
 * them remotely.
 *
 * <table>
 *   <caption>MBeans</caption>
 *   <tr><th>name</th><th>what</th></tr>
 *   <tr><td>io.shardvault:type=Cluster,name=cluster</td><td>{@link ClusterMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Vault,name=vault-V</td><td>{@link VaultMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Pod,name=vault-V.pod-I</td><td>{@link PodMXBean}, one per pod</td></tr>
 *   <tr><td>io.shardvault:type=Stash,name=stash</td><td>{@link StashMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Catalog,name=catalog</td><td>{@link CatalogMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=AccessKeys,name=accessKeys</td><td>{@link AccessKeysMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Accounts,name=accounts</td><td>{@link AccountsMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Buckets,name=buckets</td><td>{@link BucketsMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Repair,name=repair</td><td>{@link RepairMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=Collect,name=collect</td><td>{@link CollectMXBean}</td></tr>
 *   <tr><td>io.shardvault:type=PodRebuild,name=podRebuild</td><td>{@link PodRebuildMXBean}</td></tr>
 * </table>
 *
 * <p>The MBeans go into the platform MBean server (next to the JVM's own and the JMX meter
 * registry's). A second coordinator in the same JVM (tests) finds the names taken and uses a
 * private MBean server of its own, served by its own remote connector.
 *
 * <p>The Catalog MXBean (with its {@code initMap}) and the remote connector come first, while the coordinator
 * waits for the catalog's cluster map; the others once it has it ({@link #registerCluster}).
 *
 * <p>Thread-safe. {@link #close()} stops the remote connector and unregisters the MBeans.
 */
public final class CoordinatorAdmin implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorAdmin.class);

    private final MBeanRegistrations registrations;
    private final Optional<JmxRemoteServer> remote;
    private final CatalogBean catalog;
    /** The console's RPC client, from {@link #registerCluster} on. */
    private volatile RpcClient rpc;

    private CoordinatorAdmin(MBeanRegistrations registrations, Optional<JmxRemoteServer> remote, CatalogBean catalog) {
        this.registrations = registrations;
        this.remote = remote;
        this.catalog = catalog;
    }

    /** The pod-state refresh interval the settings ask for. */
    public static Duration podStatesRefresh(Settings settings) {
        return settings.get(CoordinatorAdminConfigKeys.POD_STATES_REFRESH);
    }

    /**
     * Registers the Catalog MXBean and starts remote JMX if configured: as soon as the catalog answers, before
     * the coordinator knows the cluster map, so that {@code shardvault init --map} can register it through
     * {@code mapInit}. The other MXBeans follow with {@link #registerCluster}.
     */
    public static CoordinatorAdmin open(Settings settings, CatalogServer catalogServer, ClusterMapInit mapInit)
            throws IOException {
        JmxRemoteConfig remoteConfig = JmxRemoteConfig.from(settings);
        CatalogBean catalog = new CatalogBean(catalogServer, mapInit);
        MBeanRegistrations regs = register(ManagementFactory.getPlatformMBeanServer(), catalog);
        if (regs == null) {
            LOG.warn("the coordinator MBeans are already registered in this JVM's platform MBean server"
                    + " (another coordinator runs here): using a private MBean server");
            regs = register(MBeanServerFactory.newMBeanServer(), catalog);
        }
        try {
            Optional<JmxRemoteServer> remote = JmxRemoteServer.startIfEnabled(remoteConfig, regs.server());
            return new CoordinatorAdmin(regs, remote, catalog);
        } catch (IOException | RuntimeException e) {
            regs.close();
            throw e;
        }
    }

    /** The Catalog MXBean in {@code server}; null when its name is taken there. */
    private static MBeanRegistrations register(MBeanServer server, CatalogBean catalog) {
        MBeanRegistrations regs = new MBeanRegistrations(server);
        try {
            regs.register(MBeanRegistrations.name("Catalog", "catalog"), catalog, CatalogMXBean.class);
            return regs;
        } catch (InstanceAlreadyExistsException e) {
            regs.close();
            return null;
        }
    }

    /**
     * Registers the cluster's MXBeans, once the coordinator knows the cluster map.
     *
     * @param transport the coordinator's RPC transport (not owned); the console makes its own client
     * @param vault the vault as the coordinator's map has it now (asked at every probe)
     * @param writeQuorum the data paths' write quorum for {@code vault}, to say whether it is writable
     * @param healing the repair worker, orphan collector and pod rebuilds, for their MBeans
     */
    public void registerCluster(CatalogServer catalogServer, Supplier<Vault> vault, int writeQuorum,
                                List<InetSocketAddress> stashServers, RpcTransport transport, RpcClientConfig rpcConfig,
                                CatalogPodStates podStates, HealingJobs healing) {
        rpc = RpcClient.create(transport, rpcConfig);
        ClusterProbe probe = new ClusterProbe(vault, writeQuorum, stashServers, new PodClient(rpc),
                new StashClient(rpc), podStates);
        Vault v = probe.vault();
        try {
            registrations.register(clusterName(), new ClusterBean(probe, catalog), ClusterMXBean.class);
            registrations.register(MBeanRegistrations.name("Vault", "vault-" + v.vaultId()), new VaultBean(probe),
                    VaultMXBean.class);
            for (int i = 0; i < v.layout().n(); i++) {
                registrations.register(podName(v.vaultId(), i), new PodBean(probe, i), PodMXBean.class);
            }
            registrations.register(MBeanRegistrations.name("Stash", "stash"), new StashBean(probe), StashMXBean.class);
            registrations.register(MBeanRegistrations.name("AccessKeys", "accessKeys"),
                    new AccessKeysBean(catalogServer.catalog()), AccessKeysMXBean.class);
            registrations.register(MBeanRegistrations.name("Accounts", "accounts"),
                    new AccountsBean(catalogServer.catalog()), AccountsMXBean.class);
            registrations.register(bucketsName(), new BucketsBean(catalogServer.catalog(), v.layout().n(),
                    v.layout().k()), BucketsMXBean.class);
            registrations.register(repairName(), new RepairBean(healing.repair()), RepairMXBean.class);
            registrations.register(collectName(), new CollectBean(healing.collector()), CollectMXBean.class);
            registrations.register(podRebuildName(), new PodRebuildBean(healing.rebuilds()), PodRebuildMXBean.class);
        } catch (InstanceAlreadyExistsException e) {
            // open() took this MBean server for this coordinator alone: a taken name is a second call.
            throw new IllegalStateException("the cluster MBeans are registered already: " + e.getMessage(), e);
        }
    }

    /** {@code io.shardvault:type=Cluster,name=cluster}. */
    public static ObjectName clusterName() {
        return MBeanRegistrations.name("Cluster", "cluster");
    }

    /** {@code io.shardvault:type=Buckets,name=buckets}. */
    public static ObjectName bucketsName() {
        return MBeanRegistrations.name("Buckets", "buckets");
    }

    /** {@code io.shardvault:type=Repair,name=repair}. */
    public static ObjectName repairName() {
        return MBeanRegistrations.name("Repair", "repair");
    }

    /** {@code io.shardvault:type=Collect,name=collect}. */
    public static ObjectName collectName() {
        return MBeanRegistrations.name("Collect", "collect");
    }

    /** {@code io.shardvault:type=PodRebuild,name=podRebuild}. */
    public static ObjectName podRebuildName() {
        return MBeanRegistrations.name("PodRebuild", "podRebuild");
    }

    /** {@code io.shardvault:type=Pod,name=vault-V.pod-I}. */
    public static ObjectName podName(int vaultId, int shardIndex) {
        return MBeanRegistrations.name("Pod", "vault-" + vaultId + ".pod-" + shardIndex);
    }

    /** The MBean server holding this coordinator's MBeans. */
    public MBeanServer mbeanServer() {
        return registrations.server();
    }

    /** Where remote JMX listens, when enabled. */
    public Optional<InetSocketAddress> remoteAddress() {
        return remote.map(JmxRemoteServer::address);
    }

    @Override
    public void close() {
        remote.ifPresent(JmxRemoteServer::close);
        registrations.close();
        RpcClient r = rpc;
        if (r != null) {
            r.close();
        }
    }
}
