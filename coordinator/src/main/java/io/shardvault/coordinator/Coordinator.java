package io.shardvault.coordinator;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.coordinator.admin.CoordinatorAdmin;
import io.shardvault.coordinator.admin.HealingJobs;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.data.DataPathConfig;
import io.shardvault.coordinator.data.PodAssignments;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.collect.CollectConfig;
import io.shardvault.coordinator.collect.CollectMetrics;
import io.shardvault.coordinator.collect.OrphanCollector;
import io.shardvault.coordinator.lifecycle.LifecycleConfig;
import io.shardvault.coordinator.lifecycle.LifecycleExpirer;
import io.shardvault.coordinator.lifecycle.LifecycleMetrics;
import io.shardvault.coordinator.repair.LeaderTenure;
import io.shardvault.coordinator.repair.PodRebuildConfig;
import io.shardvault.coordinator.repair.PodRebuildMetrics;
import io.shardvault.coordinator.repair.PodRebuildWorker;
import io.shardvault.coordinator.repair.ReadDamageReports;
import io.shardvault.coordinator.repair.RepairConfig;
import io.shardvault.coordinator.repair.RepairConfigKeys;
import io.shardvault.coordinator.repair.RepairMetrics;
import io.shardvault.coordinator.repair.RepairWorker;
import io.shardvault.coordinator.repair.ScrubFindingsCollector;
import io.shardvault.coordinator.repair.ScrubFindingsConfigKeys;
import io.shardvault.coordinator.store.CatalogCredentialStore;
import io.shardvault.coordinator.store.CatalogFileIdSource;
import io.shardvault.coordinator.store.CatalogObjectStore;
import io.shardvault.coordinator.store.CatalogPodStates;
import io.shardvault.coordinator.store.CatalogVaultMap;
import io.shardvault.coordinator.store.FileReaper;
import io.shardvault.coordinator.store.FreeSpace;
import io.shardvault.coordinator.store.PodFreeSpace;
import io.shardvault.pod.api.PodClient;
import io.shardvault.s3.Credential;
import io.shardvault.s3.CredentialStore;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.stash.api.StashClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One coordinator: its catalog peer, the data paths over the vault's pods and the stash, the repair
 * worker, the file reaper, and the S3 endpoint, started in that order and closed in the reverse one.
 *
 * <pre>
 *  start() ──▶ catalog peer up, leader known ──▶ Catalog MXBean, remote JMX ──▶ cluster map from the catalog
 *          (the settings' registered first, or waiting for shardvault init) ──▶ pods assigned from it
 *          ──▶ S3 endpoint listening ──▶ RUNNING
 *  close() ──▶ S3 endpoint closed ──▶ reaper, data paths, RPC transport closed ──▶ catalog peer closed
 * </pre>
 *
 * <p>Thread-safe. Holds no durable state of its own (the catalog peer keeps its data directory).
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

    /** How long SOSAPI's capacity.xml reuses the pods' free space (Veeam polls every few minutes). */
    private static final Duration FREE_SPACE_MAX_AGE = Duration.ofSeconds(10);

    private final List<AutoCloseable> closeInOrder = new ArrayList<>();
    private S3Server s3;
    private VaultReadiness readiness;
    private Catalog catalog;
    private LifecycleExpirer lifecycle;

    private Coordinator() {
    }

    /** Starts every part; on failure closes what was started and throws. */
    public static Coordinator start(Settings settings, MeterRegistry registry) throws IOException {
        return start(settings, registry, Clock.systemUTC());
    }

    /**
     * As {@link #start(Settings, MeterRegistry)}, with the lifecycle expirer counting ages against
     * {@code lifecycleClock} (tests move it forward instead of waiting days).
     */
    public static Coordinator start(Settings settings, MeterRegistry registry, Clock lifecycleClock)
            throws IOException {
        CoordinatorConfig config = CoordinatorConfig.from(settings);
        DataPathConfig dataConfig = DataPathConfig.from(settings);
        Coordinator c = new Coordinator();
        List<AutoCloseable> started = new ArrayList<>();
        try {
            CatalogConfig catalogConfig = CatalogConfig.from(settings);
            CatalogServer catalogServer = RatisCatalogServer.start(catalogConfig, registry);
            started.add(catalogServer);
            Catalog catalog = catalogServer.catalog();
            awaitCatalog(catalogServer, config.startupTimeout().toMillis());
            // Before the map is known: shardvault init --map reaches the catalog through this coordinator's JMX.
            CoordinatorAdmin admin = CoordinatorAdmin.open(settings, catalogServer,
                    text -> ClusterMapBootstrap.init(catalogServer, text));
            started.add(admin);
            // One source for the map, the catalog's: where pods are (a decommission moves them there), and
            // where stash copies go, for this coordinator's writes and the pods' recovery alike (ASSIGN).
            ClusterMapBootstrap.Learned map = ClusterMapBootstrap.learn(catalog, config, settings.source(),
                    config.startupTimeout());
            Vault vault = map.vault();
            List<InetSocketAddress> stashServers = map.stashServers();
            // Fail before S3 listens, not on the first large PUT: the large-file chunk must suit the vault.
            dataConfig.largeFileLayout(vault.layout());

            RpcTransport transport = RpcTransport.create(RpcTransportConfig.from(settings));
            started.add(transport);
            RpcClient statsRpc = RpcClient.create(transport, RpcClientConfig.from(settings));
            started.add(statsRpc);
            PodAssignments assignments = new PodAssignments(new PodClient(statsRpc), map.podsBySlot(), stashServers);
            awaitAssignments(assignments);
            ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.from(settings), registry);
            // Operator pod states from the catalog: drained and down pods get no new shards.
            CatalogPodStates podStates = new CatalogPodStates(catalog, CoordinatorAdmin.podStatesRefresh(settings));
            started.add(podStates);
            // Repair (issue #20): reads queue the damage they find; the worker repairs while this peer leads.
            RepairConfig repairConfig = RepairConfig.from(settings);
            RepairMetrics repairMetrics = new RepairMetrics(registry);
            // The one holder of the vault map: every part below asks it, so a decommission's end switches them all.
            CatalogVaultMap vaults = new CatalogVaultMap(catalog, vault, CoordinatorAdmin.podStatesRefresh(settings),
                    assignments::follow);
            started.add(vaults);
            ShardDataPath data = ShardDataPath.create(dataConfig, vaults,
                    new CatalogFileIdSource(catalog, config.fileIdBatch()), codecs, transport,
                    RpcClientConfig.from(settings), stashServers, podStates, assignments,
                    new ReadDamageReports(catalog::enqueueRepair, repairConfig.reportsMax(), repairMetrics), registry);
            started.add(data);
            RpcClient repairRpc = RpcClient.create(transport, RpcClientConfig.from(settings));
            started.add(repairRpc);
            // Repairs and rebuilds rewrite shards: only after a takeover delay in the lead (LeaderTenure says why).
            LeaderTenure tenure = LeaderTenure.of(catalogServer, settings.get(RepairConfigKeys.TAKEOVER_DELAY));
            RepairWorker repair = RepairWorker.start(repairConfig, catalog, tenure, vaults, data,
                    new PodClient(repairRpc), codecs, repairMetrics, dataConfig.rpcTimeout());
            started.add(repair);
            // Scrub (issue #20 section 4): the pods' scrub findings go to the repair queue, taken by the leader.
            ScrubFindingsCollector scrubFindings = ScrubFindingsCollector.start(
                    settings.get(ScrubFindingsConfigKeys.INTERVAL), catalog, catalogServer::isLeader,
                    vaults, new PodClient(repairRpc), repairMetrics, dataConfig.rpcTimeout());
            started.add(scrubFindings);
            // Pod rebuild (issue #20): jobs are catalog rows; the leader runs them, resuming from their checkpoint.
            PodRebuildWorker rebuilds = PodRebuildWorker.start(PodRebuildConfig.from(settings), catalog,
                    tenure, vaults, data, new PodClient(repairRpc), codecs,
                    new PodRebuildMetrics(registry), dataConfig.rpcTimeout());
            started.add(rebuilds);
            FileReaper reaper = new FileReaper(catalog, data, config.reaperInterval(), config.reaperGrace(),
                    System::nanoTime);
            started.add(reaper);
            // Orphan collection (issue #20): files no catalog entry refers to go, behind the catalog's fence.
            OrphanCollector collector = OrphanCollector.start(CollectConfig.from(settings), catalog,
                    catalogServer::isLeader, vaults, new PodClient(repairRpc),
                    new StashClient(repairRpc), stashServers, new CollectMetrics(registry), dataConfig.rpcTimeout());
            started.add(collector);
            // Lifecycle rules (issue #24): applied by the leader, through the catalog's own deletes.
            c.lifecycle = LifecycleExpirer.start(LifecycleConfig.from(settings), catalog, catalogServer::isLeader,
                    reaper::wake, new LifecycleMetrics(registry), lifecycleClock, dataConfig.rpcTimeout());
            started.add(c.lifecycle);
            FreeSpace freeSpace = new PodFreeSpace(catalog, new PodClient(statsRpc), FREE_SPACE_MAX_AGE,
                    System::nanoTime);
            S3ServerConfig s3Config = S3ServerConfig.from(settings);
            // The bootstrap key is the account's root, as on AWS: it may bypass GOVERNANCE retention.
            CatalogObjectStore store = new CatalogObjectStore(catalog, data, reaper, CatalogObjectStore.MIN_PART_BYTES,
                    s3Config.region(), freeSpace, config.bootstrapKey().map(Credential::accessKeyId), registry);
            CredentialStore credentials = withBootstrapKey(new CatalogCredentialStore(catalog), config.bootstrapKey());
            admin.registerCluster(catalogServer, vaults::current, dataConfig.writeQuorum(vault.layout()),
                    stashServers, transport, RpcClientConfig.from(settings), podStates,
                    new HealingJobs(repair, collector, rebuilds));
            c.catalog = catalog;
            c.s3 = S3Server.start(s3Config, store, credentials, registry);
            started.add(c.s3);
            RpcClientConfig rpcConfig = RpcClientConfig.from(settings);
            c.readiness = new VaultReadiness(catalogServer, vaults::current,
                    dataConfig.writeQuorum(vault.layout()), RpcClient.create(transport,
                    new RpcClientConfig(rpcConfig.maxFrameBytes(), 1, VaultReadiness.TIMEOUT, VaultReadiness.TIMEOUT,
                            VaultReadiness.TIMEOUT)), assignments).start();
            started.add(c.readiness);
            // Close in the reverse order of start.
            for (int i = started.size() - 1; i >= 0; i--) {
                c.closeInOrder.add(started.get(i));
            }
            return c;
        } catch (IOException | RuntimeException e) {
            for (int i = started.size() - 1; i >= 0; i--) {
                closeQuietly(started.get(i));
            }
            throw e;
        }
    }

    /**
     * Whether this coordinator can take writes: the catalog has a leader, enough of the vault's
     * pods answer for a write quorum, and a catalog write commits (see {@link VaultReadiness}).
     * Cheap and non-blocking: answers from the last background probe.
     */
    public Readiness readiness() {
        return readiness.check();
    }

    /** This coordinator's catalog client (admin operations: access keys, bucket quotas). */
    public Catalog catalog() {
        return catalog;
    }

    /** This coordinator's lifecycle expirer (it applies rules only while its catalog peer leads). */
    public LifecycleExpirer lifecycle() {
        return lifecycle;
    }

    /** The S3 endpoint's bound address. */
    public InetSocketAddress s3Address() {
        return s3.localAddress();
    }

    /** Waits until the catalog answers a linearizable read (a leader is elected and has applied its log). */
    private static void awaitCatalog(CatalogServer server, long timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try {
                // Ask only once a leader is known: requests sent during the election fail loudly in Ratis's log.
                if (server.leaderId().isEmpty()) {
                    Thread.sleep(100);
                    continue;
                }
                server.catalog().listBuckets().get(10, TimeUnit.SECONDS);
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                last = e.getCause() == null ? e : e.getCause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the catalog", e);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the catalog", e);
            }
        }
        throw new IOException("the catalog did not answer within " + timeoutMillis + " ms: " + last, last);
    }

    /** How long start-up waits for the pods to take their assignments (unassigned pods are written durably). */
    private static final Duration ASSIGN_WAIT = Duration.ofSeconds(5);

    /** Sends every pod its assignment and waits a little: pods not assigned by then are written durably. */
    private static void awaitAssignments(PodAssignments assignments) {
        try {
            assignments.assignAll().get(ASSIGN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.info("not every pod took its assignment within {} ms; the readiness probe retries: {}",
                    ASSIGN_WAIT.toMillis(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static CredentialStore withBootstrapKey(CredentialStore catalogKeys, Optional<Credential> bootstrap) {
        if (bootstrap.isEmpty()) {
            return catalogKeys;
        }
        Credential key = bootstrap.get();
        return accessKeyId -> key.accessKeyId().equals(accessKeyId)
                ? CompletableFuture.completedFuture(Optional.of(key)) : catalogKeys.find(accessKeyId);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", c, e.toString());
        }
    }

    /**
     * Closes {@code c}, waiting at most {@link #CLOSE_TIMEOUT_SECONDS}: a part that hangs in its close
     * must not keep the process (and the JVM's shutdown hooks) from ending.
     */
    private static void closeBounded(AutoCloseable c) {
        Thread closer = new Thread(() -> closeQuietly(c), "coordinator-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(TimeUnit.SECONDS.toMillis(CLOSE_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            LOG.warn("closing {} did not finish within {} s; going on without it", c, CLOSE_TIMEOUT_SECONDS);
        }
    }

    private static final long CLOSE_TIMEOUT_SECONDS = 10;

    @Override
    public void close() {
        for (AutoCloseable c : closeInOrder) {
            closeBounded(c);
        }
        closeInOrder.clear();
    }
}
