package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.ByteSources;
import io.shardvault.coordinator.data.DataPathTesting;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.data.WritablePods;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.store.CatalogFileIdSource;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repair end to end over real pods (a 16+4 MiniCluster), a real one-peer Ratis catalog and the repair
 * worker: a shard missed at write and a chunk rotted on disk are queued, rebuilt and written back, and
 * then carry reads that only they make possible (four other pods down).
 */
@Timeout(300)
class RepairClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(RepairClusterTest.class);
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String BUCKET = "repairs";

    @TempDir
    Path dir;

    private MiniCluster cluster;
    private CatalogServer catalogServer;
    private Catalog catalog;
    private ShardDataPath data;
    private RpcClient rpc;
    private RepairWorker worker;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final RepairMetrics metrics = new RepairMetrics(registry);
    private Random random;

    @BeforeEach
    void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        cluster = MiniCluster.start(dir.resolve("vault"), MiniCluster.Options.defaults());
        catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"));
        catalog = catalogServer.catalog();
        VaultLayout layout = cluster.vault().layout();
        catalog.registerVault(new VaultInfo(MiniCluster.VAULT_ID, new FileLayout(layout.k(), layout.m(),
                layout.chunkBytes()), 1L << 40, List.of())).join();
        catalog.createBucket(BUCKET, "AK", false).join();
        ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.defaults());
        VaultDirectory vaults = VaultDirectory.of(List.of(cluster.vault()));
        data = ShardDataPath.create(MiniCluster.Options.defaults().dataPath(), vaults,
                new CatalogFileIdSource(catalog, 16), codecs, cluster.transport(), RpcClientConfig.defaults(),
                cluster.stashAddresses(), WritablePods.ALL, cluster.assignments(),
                new ReadDamageReports(catalog::enqueueRepair, 64, metrics),
                registry);
        rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults().withRequestTimeout(Duration.ofSeconds(5)));
        BooleanSupplier leads = catalogServer::isLeader;
        worker = RepairWorker.start(RepairConfig.defaults().withPace(Duration.ofMillis(200), Duration.ofMillis(300)),
                catalog, leads, vaults, data, new PodClient(rpc), codecs, metrics, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {worker, data, rpc, catalogServer, cluster}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                LOG.warn("closing {}: {}", c, e.toString());
            }
        }
    }

    @Test
    void shardsMissedAtWriteAreRepairedOnceThePodIsBackAndThenCarryReadsWithFourOtherPodsDown() throws Exception {
        int down = 3;
        cluster.stopPod(down);
        Map<String, byte[]> objects = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            objects.put("small-" + i, bytes(50_000 + 10_000 * i));
        }
        objects.put("large", bytes(10 * 1024 * 1024 + 12_345));
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            StoredFile f = write(o.getKey(), o.getValue());
            assertThat(f.missingShards()).as(o.getKey()).containsExactly(down);
        }
        // Queued by the commits; the worker cannot repair them while the pod is down: they stay, backed off.
        List<RepairTask> queued = catalog.listRepairs(0, 0, 100).join();
        assertThat(queued).hasSize(objects.size()).allSatisfy(t -> {
            assertThat(t.shards()).containsExactly(down);
            assertThat(t.reason()).isEqualTo("write-missed");
        });
        awaitTrue("a failed repair attempt", () -> metrics.failures.count() >= 1);
        assertThat(catalog.listRepairs(0, 0, 100).join()).hasSize(objects.size());

        cluster.restartPod(down);
        awaitTrue("the queue to empty", () -> catalog.listRepairs(0, 0, 100).join().isEmpty());
        assertThat(metrics.shardsRepaired.count()).isEqualTo(objects.size());
        assertThat(metrics.bytesRepaired.count()).isPositive();

        // Only 16 pods left, one of them the repaired shard's: every object must read back exact.
        for (int p : new int[] {0, 1, 2, 17}) {
            cluster.stopPod(p);
        }
        for (int s = 0; s < cluster.stashAddresses().size(); s++) {
            cluster.stopStash(s);
        }
        assertReadBack(objects);
    }

    @Test
    void aChunkRottedOnDiskIsQueuedByTheReadThatFoundItAndRepaired() throws Exception {
        Map<String, byte[]> objects = Map.of("large", bytes(9 * 1024 * 1024 + 777));
        StoredFile f = write("large", objects.get("large"));
        assertThat(f.missingShards()).isEmpty();
        assertThat(catalog.listRepairs(0, 0, 100).join()).isEmpty();
        int rotten = 5;
        Path file = cluster.shardFile(rotten, new ShardId(f.vaultId(), f.fileId(), rotten));
        flipByte(file, 32 + 28 + 100);

        assertReadBack(objects);
        awaitTrue("the read's report", () -> metrics.reportsQueued.count() >= 1);
        awaitTrue("the repair", () -> metrics.shardsRepaired.count() >= 1
                && catalog.listRepairs(0, 0, 100).join().isEmpty());

        for (int p : new int[] {0, 1, 2, 16}) {
            cluster.stopPod(p);
        }
        assertReadBack(objects);
    }

    private byte[] bytes(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    /** Writes and commits one object, as the S3 layer does. */
    private StoredFile write(String key, byte[] body) throws Exception {
        StoredFile f = data.write(ByteSources.of(body)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        VaultLayout l = f.layout();
        catalog.putObjectVersion(PutObjectVersion.of(BUCKET, key, "etag-" + key, ObjectMetadata.EMPTY,
                new FileRef(f.vaultId(), f.fileId(), f.size(), new FileLayout(l.k(), l.m(), l.chunkBytes()),
                        f.missingShards()))).join();
        return f;
    }

    private void assertReadBack(Map<String, byte[]> objects) throws Exception {
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            FileRef ref = catalog.getObjectVersion(BUCKET, o.getKey(), java.util.Optional.empty()).join()
                    .parts().get(0).file();
            VaultLayout layout = new VaultLayout(new ErasureLayout(ref.layout().dataShards(),
                    ref.layout().parityShards()), ref.layout().chunkBytes());
            StoredFile f = new StoredFile(ref.vaultId(), ref.fileId(), ref.size(), layout, ref.missingShards(),
                    layout.stripeCount(ref.size()) == 1);
            assertThat(read(f)).as(o.getKey()).isEqualTo(o.getValue());
        }
    }

    private byte[] read(StoredFile f) throws Exception {
        return DataPathTesting.read(data, f);
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, at);
            one.flip();
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            ch.write(one, at);
            ch.force(false);
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int attempt = 0; attempt < 2000 && System.nanoTime() < deadline; attempt++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
