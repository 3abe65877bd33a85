package io.shardvault.coordinator.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.FileState;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.ByteSources;
import io.shardvault.coordinator.data.DataPathTesting;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.data.WritablePods;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.repair.ReadDamageReports;
import io.shardvault.coordinator.repair.RepairMetrics;
import io.shardvault.coordinator.store.CatalogFileIdSource;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
import io.shardvault.pod.api.PodClient;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Orphan collection end to end over real pods and stash servers (a 16+4 MiniCluster, flushes held back so
 * small files' stash copies stay) and a real one-peer Ratis catalog (issue #20, section 5): files whose
 * writer died between the data write and the commit are collected once past the grace period, on every pod
 * and stash server, and every referenced file, its unflushed shards' stash copies included, stays and reads
 * back exact; a commit racing the fence of its file is refused or wins, never both.
 */
@Timeout(300)
class OrphanCollectorClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanCollectorClusterTest.class);
    private static final long WAIT_SECONDS = 90;
    private static final String BUCKET = "orphans";

    @TempDir
    Path dir;

    private MiniCluster cluster;
    private CatalogServer catalogServer;
    private Catalog catalog;
    private ShardDataPath data;
    private RpcClient rpc;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final CollectMetrics metrics = new CollectMetrics(registry);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Random random;

    @BeforeEach
    void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        cluster = MiniCluster.start(dir.resolve("vault"), MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m")));
        catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"));
        catalog = catalogServer.catalog();
        VaultLayout layout = cluster.vault().layout();
        catalog.registerVault(new VaultInfo(MiniCluster.VAULT_ID, new FileLayout(layout.k(), layout.m(),
                layout.chunkBytes()), 1L << 40, List.of())).join();
        catalog.createBucket(BUCKET, "AK", false).join();
        data = newDataPath();
        rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults().withRequestTimeout(Duration.ofSeconds(5)));
    }

    /** A coordinator's data path: each one takes its own file ids from the catalog, as a coordinator does. */
    private ShardDataPath newDataPath() {
        return ShardDataPath.create(MiniCluster.Options.defaults().dataPath(), VaultDirectory.of(List.of(cluster.vault())),
                new CatalogFileIdSource(catalog, 16), ErasureCodecs.create(ErasureConfig.defaults()), cluster.transport(),
                RpcClientConfig.defaults(), cluster.stashAddresses(), WritablePods.ALL, cluster.assignments(),
                new ReadDamageReports(catalog::enqueueRepair, 64, new RepairMetrics(registry)), registry);
    }

    private OrphanCollector collector(Duration grace) {
        OrphanCollector c = OrphanCollector.start(CollectConfig.defaults().withPace(grace, Duration.ofHours(1)), catalog,
                catalogServer::isLeader, List.of(cluster.vault()), new PodClient(rpc), new StashClient(rpc),
                cluster.stashAddresses(), metrics, Duration.ofSeconds(5));
        closeables.add(c);
        return c;
    }

    @AfterEach
    void stop() {
        List<AutoCloseable> all = new ArrayList<>(closeables);
        all.addAll(List.of(data, rpc, catalogServer, cluster));
        for (AutoCloseable c : all) {
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
    void filesWrittenByACoordinatorThatDiedBeforeItsCommitAreCollectedAfterTheGraceAndEveryReferencedFileStays()
            throws Exception {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        objects.put("small-0", bytes(40_000));
        objects.put("small-1", bytes(300_000));
        objects.put("large", bytes(5 * 1024 * 1024 + 321));
        Map<String, StoredFile> committed = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            committed.put(o.getKey(), commit(o.getKey(), write(data, o.getValue())));
        }
        // A second coordinator writes two files' shards (one small and stashed, one large) and dies before
        // committing them.
        ShardDataPath doomed = newDataPath();
        List<StoredFile> orphans = List.of(write(doomed, bytes(60_000)), write(doomed, bytes(3 * 1024 * 1024 + 7)));
        doomed.close();
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).as("orphan %s written", f.fileId()).isGreaterThanOrEqualTo(19);
        }
        assertThat(stashEntries(orphans.get(0))).as("the small orphan's stash copies").isNotEmpty();
        StoredFile smallCommitted = committed.get("small-0");
        int stashedLive = stashEntries(smallCommitted).size();
        assertThat(stashedLive).as("the live small file's unflushed shards' stash copies").isPositive();

        // Within the grace period: found, left alone.
        OrphanCollector.Pass early = collector(Duration.ofHours(1)).collectNow();
        assertThat(early.orphansFound()).isEqualTo(2);
        assertThat(early.orphansWaiting()).isEqualTo(2);
        assertThat(early.filesCollected()).isZero();
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).isGreaterThanOrEqualTo(19);
        }

        // Past it: the orphans go from every pod and stash server; nothing referenced is touched.
        OrphanCollector.Pass pass = collector(Duration.ofMillis(1)).collectNow();
        assertThat(pass.filesCollected()).isEqualTo(2);
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).as("orphan %s's shards", f.fileId()).isZero();
            assertThat(stashEntries(f)).as("orphan %s's stash entries", f.fileId()).isEmpty();
            assertThat(catalog.fileStates(List.of(key(f))).join()).containsExactly(FileState.COLLECTED);
        }
        assertThat(metrics.filesCollected.count()).isEqualTo(2.0);
        assertThat(metrics.shardsDeleted.count()).isGreaterThanOrEqualTo(38.0);
        assertThat(metrics.stashEntriesPurged.count()).isPositive();
        assertThat(metrics.lastPassMillis.get()).isPositive();
        for (StoredFile f : committed.values()) {
            assertThat(shardsOnPods(f)).as("live file %s's shards", f.fileId()).isGreaterThanOrEqualTo(19);
        }
        assertThat(stashEntries(smallCommitted)).as("the live file's stash copies").hasSize(stashedLive);
        assertReadBack(objects);

        // A second pass finds nothing left to do.
        assertThat(collector(Duration.ofMillis(1)).collectNow().orphansFound()).isZero();
    }

    @Test
    void aCommitAndTheFenceOfItsFileRaceAndWhicheverAppliesFirstNoAcknowledgedObjectPointsAtCollectedShards()
            throws Exception {
        // The fence applies first: the commit is refused, definitely, and nothing is acknowledged.
        byte[] lateBody = bytes(70_000);
        StoredFile late = write(data, lateBody);
        assertThat(catalog.collectFiles(List.of(key(late))).join()).containsExactly(key(late));
        try {
            commit("late", late);
            throw new AssertionError("a commit of a fenced file was acknowledged");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.CONFLICT);
        }
        try {
            catalog.getObjectVersion(BUCKET, "late", Optional.empty()).join();
            throw new AssertionError("the refused commit wrote a version");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.NO_SUCH_KEY);
        }

        // The commit applies first: the fence refuses the file, and the collector leaves it.
        byte[] firstBody = bytes(80_000);
        StoredFile first = commit("first", write(data, firstBody));
        assertThat(catalog.collectFiles(List.of(key(first))).join()).isEmpty();

        OrphanCollector.Pass pass = collector(Duration.ofMillis(1)).collectNow();
        assertThat(pass.filesCollected()).as("only the fenced file").isEqualTo(1);
        assertThat(shardsOnPods(late)).isZero();
        assertThat(shardsOnPods(first)).isGreaterThanOrEqualTo(19);
        assertReadBack(Map.of("first", firstBody));
        // And the fenced file can never be committed later, however late its commit comes.
        try {
            commit("later-still", late);
            throw new AssertionError("a commit of a collected file was acknowledged");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.CONFLICT);
        }
    }

    private static FileKey key(StoredFile f) {
        return new FileKey(f.vaultId(), f.fileId());
    }

    private byte[] bytes(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    private static StoredFile write(ShardDataPath path, byte[] body) throws Exception {
        return path.write(ByteSources.of(body)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Commits one object's version, as the S3 layer does. */
    private StoredFile commit(String key, StoredFile f) {
        VaultLayout l = f.layout();
        catalog.putObjectVersion(PutObjectVersion.of(BUCKET, key, "etag-" + key, ObjectMetadata.EMPTY,
                new FileRef(f.vaultId(), f.fileId(), f.size(), new FileLayout(l.k(), l.m(), l.chunkBytes()),
                        f.missingShards()))).join();
        return f;
    }

    private int shardsOnPods(StoredFile f) {
        int n = 0;
        for (int i = 0; i < cluster.podCount(); i++) {
            if (Files.exists(cluster.shardFile(i, new ShardId(f.vaultId(), f.fileId(), i)))) {
                n++;
            }
        }
        return n;
    }

    private List<StashEntryInfo> stashEntries(StoredFile f) {
        StashClient stash = new StashClient(rpc);
        List<StashEntryInfo> out = new ArrayList<>();
        for (InetSocketAddress server : cluster.stashAddresses()) {
            for (int i = 0; i < cluster.podCount(); i++) {
                Optional<ShardId> after = Optional.empty();
                do {
                    StashPage page = stash.list(server, f.vaultId(), i, after, 1000).join();
                    page.entries().stream().filter(e -> e.id().fileId() == f.fileId()).forEach(out::add);
                    after = page.next();
                } while (after.isPresent());
            }
        }
        return out;
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
}
