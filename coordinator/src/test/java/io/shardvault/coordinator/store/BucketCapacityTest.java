package io.shardvault.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.coordinator.admin.BucketsMXBean;
import io.shardvault.coordinator.admin.CoordinatorAdmin;
import io.shardvault.coordinator.admin.internal.BucketsBean;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
import io.shardvault.pod.api.PodClient;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.WriteCondition;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SOSAPI's capacity figures over a real single-peer catalog and a real vault: the cluster's figures
 * from the pods' STATS and the catalog's usage, and a bucket quota (set in the catalog) that wins.
 */
@Timeout(300)
class BucketCapacityTest {
    private static final Logger LOG = LoggerFactory.getLogger(BucketCapacityTest.class);
    private static final Caller ALICE = new Caller("AKALICE", "alice");
    private static final Caller BOB = new Caller("AKBOB", "bob");

    @TempDir
    static Path dir;
    static MiniCluster cluster;
    static CatalogServer catalogServer;
    static RpcClient rpc;
    static CatalogObjectStore store;
    static PodFreeSpace freeSpace;
    static final AtomicLong TICKER = new AtomicLong();
    static Random random;

    @BeforeAll
    static void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        cluster = MiniCluster.start(dir.resolve("vault"), MiniCluster.Options.defaults());
        catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"));
        Catalog catalog = catalogServer.catalog();
        var layout = cluster.vault().layout();
        catalog.registerVault(new VaultInfo(MiniCluster.VAULT_ID, new FileLayout(layout.k(), layout.m(),
                layout.chunkBytes()), Long.MAX_VALUE, java.util.List.of())).join();
        for (int i = 0; i < cluster.podCount(); i++) {
            InetSocketAddress a = cluster.podAddress(i);
            catalog.registerPod(new PodInfo(MiniCluster.VAULT_ID, i, "127.0.0.1", a.getPort())).join();
        }
        DataPath data = cluster.newDataPath(MiniCluster.Options.defaults().dataPath(),
                new CatalogFileIdSource(catalog, 16));
        rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults());
        freeSpace = new PodFreeSpace(catalog, new PodClient(rpc), Duration.ofSeconds(10), TICKER::get);
        store = new CatalogObjectStore(catalog, data, null, 1024, "us-east-1", freeSpace, Optional.empty(),
                new SimpleMeterRegistry());
        store.createBucket(ALICE, "backups", "us-east-1", true, CannedAcl.PRIVATE).join();
    }

    @AfterAll
    static void stop() throws IOException {
        if (rpc != null) {
            rpc.close();
        }
        if (catalogServer != null) {
            catalogServer.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static long put(String key, int size) {
        byte[] body = new byte[size];
        random.nextBytes(body);
        store.putObject(ALICE, new PutObjectRequest("backups", key, ObjectMetadata.EMPTY,
                new TestBodies.Body(body), WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE)).join();
        return size;
    }

    @Test
    void clusterFiguresComeFromPodsAndCatalog() {
        assertThat(store.reportsCapacity()).isTrue();
        long stored = put("a", 100_000) + put("b", 30_000);
        TICKER.addAndGet(Duration.ofMinutes(1).toNanos());
        BucketCapacity c = store.bucketCapacity(ALICE, "backups").join();
        long clusterUsed = catalogServer.catalog().usage(Optional.empty()).join().storedBytes();
        assertThat(c.usedBytes()).isEqualTo(clusterUsed).isGreaterThanOrEqualTo(stored);
        // Every pod of the MiniCluster shares this machine's file system: k times its free space, give or take
        // what other processes wrote meanwhile.
        long fsFree = dir.toFile().getUsableSpace();
        assertThat(c.availableBytes()).isPositive()
                .isBetween((long) (0.9 * fsFree) * cluster.vault().layout().k(),
                        (long) (1.1 * fsFree) * cluster.vault().layout().k());
        assertThat(c.capacityBytes()).isEqualTo(c.usedBytes() + c.availableBytes());
        // Another owner's bucket is not theirs to measure.
        assertThat(codeOf(() -> store.bucketCapacity(BOB, "backups").join())).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(() -> store.bucketCapacity(ALICE, "nope").join())).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
    }

    @Test
    void bucketQuotaWinsAndIsRemovable() {
        store.createBucket(ALICE, "quota", "us-east-1", false, CannedAcl.PRIVATE).join();
        Catalog catalog = catalogServer.catalog();
        catalog.setBucketQuota("quota", 1_000_000).join();
        assertThat(catalog.usage(Optional.of("quota")).join().quotaBytes()).isEqualTo(1_000_000);
        byte[] body = new byte[250_000];
        random.nextBytes(body);
        store.putObject(ALICE, new PutObjectRequest("quota", "k", ObjectMetadata.EMPTY, new TestBodies.Body(body),
                WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE)).join();
        BucketCapacity c = store.bucketCapacity(ALICE, "quota").join();
        assertThat(c).isEqualTo(new BucketCapacity(1_000_000, 750_000, 250_000));

        // Over quota: nothing available, never negative.
        catalog.setBucketQuota("quota", 100_000).join();
        assertThat(store.bucketCapacity(ALICE, "quota").join()).isEqualTo(new BucketCapacity(100_000, 0, 250_000));

        // Removed: the cluster's figures again.
        catalog.setBucketQuota("quota", 0).join();
        assertThat(catalog.usage(Optional.of("quota")).join().quotaBytes()).isZero();
        assertThat(store.bucketCapacity(ALICE, "quota").join().capacityBytes()).isGreaterThan(1_000_000);

        // Errors: a missing bucket, a negative quota; a deleted and re-created bucket starts without one.
        assertThat(catalogCode(() -> catalog.setBucketQuota("nope", 5).join())).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(catalogCode(() -> catalog.setBucketQuota("quota", -1).join()))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        catalog.setBucketQuota("quota", 42).join();
        store.deleteObject(ALICE, "quota", "k", null, false).join();
        store.deleteBucket(ALICE, "quota").join();
        store.createBucket(ALICE, "quota", "us-east-1", false, CannedAcl.PRIVATE).join();
        Usage fresh = catalog.usage(Optional.of("quota")).join();
        assertThat(fresh.quotaBytes()).isZero();
    }

    @Test
    void quotaIsSettableOverJmx() throws Exception {
        store.createBucket(ALICE, "jmx", "us-east-1", false, CannedAcl.PRIVATE).join();
        BucketsBean bean = new BucketsBean(catalogServer.catalog(), 20, 16);
        try (MBeanRegistrations regs = new MBeanRegistrations(MBeanServerFactory.newMBeanServer())) {
            regs.register(CoordinatorAdmin.bucketsName(), bean, BucketsMXBean.class);
            MBeanServer server = regs.server();
            server.invoke(CoordinatorAdmin.bucketsName(), "setQuota", new Object[] {"jmx", 5_000_000L},
                    new String[] {String.class.getName(), long.class.getName()});
            assertThat(server.invoke(CoordinatorAdmin.bucketsName(), "quota", new Object[] {"jmx"},
                    new String[] {String.class.getName()})).isEqualTo(5_000_000L);
            assertThat(store.bucketCapacity(ALICE, "jmx").join().capacityBytes()).isEqualTo(5_000_000L);
            assertThatThrownBy(() -> bean.setQuota("missing", 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("missing");
        }
    }

    @Test
    void freeSpaceIsCachedThenRefreshed() {
        TICKER.addAndGet(Duration.ofMinutes(1).toNanos());
        var first = freeSpace.availableBytes();
        assertThat(freeSpace.availableBytes()).isSameAs(first);
        TICKER.addAndGet(Duration.ofSeconds(11).toNanos());
        assertThat(freeSpace.availableBytes()).isNotSameAs(first);
        assertThat(first.join()).isPositive();
    }

    private static ErrorCode codeOf(Runnable r) {
        try {
            r.run();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(ObjectStoreException.class);
            return ((ObjectStoreException) e.getCause()).code();
        }
        throw new AssertionError("expected a failure");
    }

    private static ErrorCode catalogCode(Runnable r) {
        try {
            r.run();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(CatalogException.class);
            return ((CatalogException) e.getCause()).code();
        }
        throw new AssertionError("expected a failure");
    }
}
