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
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
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
 * Scrubbing end to end (issue #20, section 4) over real pods (a 16+4 MiniCluster whose pods scrub
 * in the background), a real one-peer Ratis catalog, the findings collector and the repair worker:
 * chunks rotted or cut short on disk in many shard files are found by the pods' scrubbers, queued,
 * repaired, and then every object reads back with no decode at all.
 */
@Timeout(300)
class ScrubRepairClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubRepairClusterTest.class);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String BUCKET = "scrubbed";

    @TempDir
    Path dir;

    private MiniCluster cluster;
    private CatalogServer catalogServer;
    private Catalog catalog;
    private ShardDataPath data;
    private RpcClient rpc;
    private VaultDirectory vaults;
    private ErasureCodecs codecs;
    private ScrubFindingsCollector collector;
    private RepairWorker worker;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final RepairMetrics metrics = new RepairMetrics(registry);
    private Random random;

    @BeforeEach
    void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        cluster = MiniCluster.start(dir.resolve("vault"), MiniCluster.Options.defaults().withPodSettings(Map.of(
                "pod.scrub.bytesPerSecond", "256MiB", "pod.scrub.interval", "100ms")));
        catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"));
        catalog = catalogServer.catalog();
        VaultLayout layout = cluster.vault().layout();
        catalog.registerVault(new VaultInfo(MiniCluster.VAULT_ID, new FileLayout(layout.k(), layout.m(),
                layout.chunkBytes()), 1L << 40, List.of())).join();
        catalog.createBucket(BUCKET, "AK", false).join();
        codecs = ErasureCodecs.create(ErasureConfig.defaults());
        vaults = VaultDirectory.of(List.of(cluster.vault()));
        data = ShardDataPath.create(MiniCluster.Options.defaults().dataPath(), vaults,
                new CatalogFileIdSource(catalog, 16), codecs, cluster.transport(), RpcClientConfig.defaults(),
                cluster.stashAddresses(), WritablePods.ALL, cluster.assignments(),
                new ReadDamageReports(catalog::enqueueRepair, 64, metrics), registry);
        rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults().withRequestTimeout(Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {collector, worker, data, rpc, catalogServer, cluster}) {
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
    void rottedAndCutShortShardFilesAreFoundByTheScrubbersRepairedAndThenReadWithoutDecoding() throws Exception {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        Map<String, StoredFile> files = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            objects.put("small-" + i, bytes(20_000 + random.nextInt(200_000)));
        }
        for (int i = 0; i < 2; i++) {
            objects.put("large-" + i, bytes(3 * 1024 * 1024 + random.nextInt(100_000)));
        }
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            StoredFile f = write(o.getKey(), o.getValue());
            assertThat(f.missingShards()).isEmpty();
            files.put(o.getKey(), f);
        }

        // Damage data shards (a read would have to decode around them): a flipped byte in most damaged
        // files, a file cut short inside its last chunk in a few, two shards of some files.
        Map<ShardId, String> damaged = new HashMap<>();
        List<String> names = new ArrayList<>(objects.keySet());
        for (int i = 0; i < names.size(); i++) {
            if (i % 3 == 2) {
                continue;
            }
            StoredFile f = files.get(names.get(i));
            int shards = i % 4 == 0 ? 2 : 1;
            int first = random.nextInt(f.layout().k() - 1);
            for (int s = first; s < first + shards; s++) {
                ShardId id = new ShardId(f.vaultId(), f.fileId(), s);
                Path file = cluster.shardFile(s, id);
                if (i % 5 == 1) {
                    cutShort(file);
                    damaged.put(id, ScrubFindingsCollector.SCRUB_MISSING);
                } else {
                    flipInFirstChunk(file, f.layout().chunkBytes());
                    damaged.put(id, ScrubFindingsCollector.SCRUB_CORRUPT);
                }
            }
        }
        LOG.info("damaged {} shard files of {} objects", damaged.size(), objects.size());

        // The pods' scrubbers find them. A coordinator that takes them and dies before queuing them
        // (no acknowledgement) loses nothing: the pods offer them again.
        PodClient pods = new PodClient(rpc);
        awaitTrue("the pods' scrubbers to find every damaged shard", () -> {
            Set<ShardId> held = new HashSet<>();
            for (InetSocketAddress pod : cluster.vault().pods()) {
                pods.scrubFindings(pod, 0, 1000).join().forEach(f -> held.add(f.id()));
            }
            return held.equals(damaged.keySet());
        });
        assertThat(catalog.listRepairs(0, 0, 1000).join()).isEmpty();

        // The collector queues exactly them, each with its reason.
        collector = ScrubFindingsCollector.start(Duration.ofMillis(100), catalog, catalogServer::isLeader,
                List.of(cluster.vault()), new PodClient(rpc), metrics, Duration.ofSeconds(5));
        awaitTrue("every damaged shard queued", () -> queuedShards().keySet().equals(damaged.keySet()));
        assertThat(queuedShards()).containsExactlyInAnyOrderEntriesOf(damaged);
        assertThat(metrics.scrubFindingsQueued.count()).isEqualTo(damaged.size());

        worker = RepairWorker.start(RepairConfig.defaults().withPace(Duration.ofMillis(200), Duration.ofMillis(300)),
                catalog, catalogServer::isLeader, vaults, data, new PodClient(rpc), codecs, metrics,
                Duration.ofSeconds(5));
        awaitTrue("every repair", () -> metrics.shardsRepaired.count() >= damaged.size()
                && catalog.listRepairs(0, 0, 1000).join().isEmpty());
        // The pods were told (the findings acknowledged): nothing is queued again by later passes.
        Thread.sleep(500);
        assertThat(catalog.listRepairs(0, 0, 1000).join()).isEmpty();

        // The repairs' own reads go through the same data path: count from here.
        double decodes = registry.get("shardvault.data.read.decodes").counter().count();
        double reports = metrics.reportsQueued.count() + metrics.reportsDuplicate.count();
        assertReadBack(objects);
        assertThat(registry.get("shardvault.data.read.decodes").counter().count()).as("decodes").isEqualTo(decodes);
        assertThat(metrics.reportsQueued.count() + metrics.reportsDuplicate.count()).as("damage found by reads")
                .isEqualTo(reports);
    }

    @Test
    void aFindingForAFileNoLongerReferencedIsDroppedNotQueued() throws Exception {
        StoredFile f = write("gone", bytes(100_000));
        catalog.deleteObject(BUCKET, "gone", Optional.empty()).join();
        ShardId id = new ShardId(f.vaultId(), f.fileId(), 2);
        flipInFirstChunk(cluster.shardFile(2, id), f.layout().chunkBytes());
        collector = ScrubFindingsCollector.start(Duration.ofMillis(100), catalog, catalogServer::isLeader,
                List.of(cluster.vault()), new PodClient(rpc), metrics, Duration.ofSeconds(5));
        awaitTrue("the finding dropped", () -> metrics.scrubFindingsDropped.count() >= 1);
        assertThat(catalog.listRepairs(0, 0, 100).join()).isEmpty();
        assertThat(metrics.scrubFindingsQueued.count()).isZero();
    }

    /** The repair queue as shard -> reason. */
    private Map<ShardId, String> queuedShards() {
        Map<ShardId, String> out = new TreeMap<>(ShardId.KEY_ORDER);
        for (RepairTask t : catalog.listRepairs(0, 0, 1000).join()) {
            for (int s : t.shards()) {
                out.put(new ShardId(t.vaultId(), t.fileId(), s), t.reason());
            }
        }
        return out;
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
            FileRef ref = catalog.getObjectVersion(BUCKET, o.getKey(), Optional.empty()).join().parts().get(0).file();
            VaultLayout layout = new VaultLayout(new ErasureLayout(ref.layout().dataShards(),
                    ref.layout().parityShards()), ref.layout().chunkBytes());
            StoredFile f = new StoredFile(ref.vaultId(), ref.fileId(), ref.size(), layout, ref.missingShards(),
                    layout.stripeCount(ref.size()) == 1);
            assertThat(DataPathTesting.read(data, f)).as(o.getKey()).isEqualTo(o.getValue());
        }
    }

    /** Flips a byte inside the file's first chunk's data (after the 32-byte file and 28-byte record headers). */
    private void flipInFirstChunk(Path file, int chunkBytes) throws IOException {
        long at = 60 + random.nextInt((int) Math.min(chunkBytes, Files.size(file) - 60));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, at);
            one.flip();
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            ch.write(one, at);
            ch.force(true);
        }
    }

    /** Cuts the file short inside its last chunk, as a lost tail would. */
    private static void cutShort(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 7);
            ch.force(true);
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
