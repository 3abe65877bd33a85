package io.shardvault.coordinator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.coordinator.data.ByteSources;
import io.shardvault.coordinator.data.DataPathTesting;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.data.WritablePods;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.repair.PodRebuildConfig;
import io.shardvault.coordinator.repair.PodRebuildMetrics;
import io.shardvault.coordinator.repair.PodRebuildWorker;
import io.shardvault.coordinator.repair.ReadDamageReports;
import io.shardvault.coordinator.repair.RepairMetrics;
import io.shardvault.coordinator.store.CatalogFileIdSource;
import io.shardvault.coordinator.store.CatalogVaultMap;
import io.shardvault.coordinator.store.StoredFiles;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the healing cluster tests (repair, scrub, pod rebuild, orphan collection) stand on: a {@link
 * MiniCluster} (16+4 real pods and stash servers), a real one-peer Ratis catalog with the vault, its pods
 * and one bucket registered, and a coordinator's data path over them whose reads queue the damage they
 * find ({@link ReadDamageReports}); plus the writes, commits and exact read-backs every such test makes.
 * The seed of {@link #bytes} is logged (rerun with {@code -Dtest.seed=}).
 *
 * <p>{@link #close()} closes what the test handed to {@link #closeLater} (its workers and collectors, newest
 * first), then the data paths, the catalog and the cluster, whatever state the test left them in. Not
 * thread-safe: drive it from the test thread.
 */
public final class HealingCluster implements AutoCloseable {
    /**
     * A decommission's catch-up delay in these clusters: long enough for a test to see the decommission's
     * DONE row (polled every 50 ms) before the catch-up's row replaces it.
     */
    public static final Duration CATCH_UP_DELAY = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(HealingCluster.class);
    /** How long a write, a read or an {@link #awaitTrue} waits. */
    public static final Duration WAIT = Duration.ofSeconds(120);
    /** The call timeout of the fixture's RPC client, and what the healing workers under test are given. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    private final Path dir;
    private final String bucket;
    private final MiniCluster cluster;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final RepairMetrics repairMetrics = new RepairMetrics(registry);
    private final ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.defaults());
    private final Random random;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<String, byte[]> objects = new LinkedHashMap<>();
    private CatalogServer catalogServer;
    private RpcClient rpc;
    private ShardDataPath data;
    /** The catalog's map once {@link #followCatalogMap()} was called; until then the fixed {@link MiniCluster#vault()}. */
    private CatalogVaultMap vaultMap;

    private HealingCluster(Path dir, String bucket, MiniCluster cluster) {
        this.dir = dir;
        this.bucket = bucket;
        this.cluster = cluster;
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        this.random = new Random(seed);
    }

    /** Starts the cluster (with {@code options}) and the catalog under {@code dir}, and registers {@code bucket}. */
    public static HealingCluster start(Path dir, String bucket, MiniCluster.Options options) throws IOException {
        HealingCluster h = new HealingCluster(dir, bucket, MiniCluster.start(dir.resolve("vault"), options));
        try {
            h.catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"));
            Vault vault = h.cluster.vault();
            VaultLayout layout = vault.layout();
            List<PodInfo> pods = new ArrayList<>();
            for (int i = 0; i < layout.n(); i++) {
                pods.add(new PodInfo(MiniCluster.VAULT_ID, i, vault.pod(i).getHostString(), vault.pod(i).getPort()));
            }
            h.catalog().registerVault(new VaultInfo(MiniCluster.VAULT_ID, new FileLayout(layout.k(), layout.m(),
                    layout.chunkBytes()), 1L << 40, pods)).join();
            h.catalog().createBucket(bucket, "AK", false).join();
            h.rpc = RpcClient.create(h.cluster.transport(), RpcClientConfig.defaults().withRequestTimeout(CALL_TIMEOUT));
            h.data = h.newDataPath();
            return h;
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /** The default cluster. */
    public static HealingCluster start(Path dir, String bucket) throws IOException {
        return start(dir, bucket, MiniCluster.Options.defaults());
    }

    public MiniCluster cluster() {
        return cluster;
    }

    public CatalogServer catalogServer() {
        return catalogServer;
    }

    public Catalog catalog() {
        return catalogServer.catalog();
    }

    /** Whether the catalog peer leads: what the healing workers are given. */
    public boolean leads() {
        return catalogServer.isLeader();
    }

    /** The data path of the test's coordinator. */
    public ShardDataPath data() {
        return data;
    }

    public RpcClient rpc() {
        return rpc;
    }

    public PodClient pods() {
        return new PodClient(rpc);
    }

    public ErasureCodecs codecs() {
        return codecs;
    }

    /** The vault map as the test's coordinator has it. */
    public VaultDirectory vaults() {
        return vaultMap != null ? vaultMap : VaultDirectory.of(List.of(cluster.vault()));
    }

    /**
     * From here on the test's coordinator asks the catalog's vault map, as {@code Coordinator} does (re-read
     * every 200 ms and by a decommission's end): {@link #vaults()}, a new {@link #data()}, the workers made
     * after this and the pods' assignments follow it while they run. Returns the map.
     */
    public CatalogVaultMap followCatalogMap() {
        vaultMap = closeLater(new CatalogVaultMap(catalog(), cluster.vault(), Duration.ofMillis(200),
                cluster.assignments()::follow));
        data = newDataPath();
        return vaultMap;
    }

    /** The registry of the data path's meters (its reads' decodes, say) and of {@link #repairMetrics()}. */
    public MeterRegistry registry() {
        return registry;
    }

    /** The repair meters the data path's damage reports count in; give them to a repair worker or collector. */
    public RepairMetrics repairMetrics() {
        return repairMetrics;
    }

    public Random random() {
        return random;
    }

    /**
     * A new coordinator's data path over the vault as {@link MiniCluster#vault()} has it now: it takes its
     * own file ids from the catalog, as a coordinator does. Closed by {@link #close()}.
     */
    public ShardDataPath newDataPath() {
        return closeLater(ShardDataPath.create(MiniCluster.Options.defaults().dataPath(), vaults(),
                new CatalogFileIdSource(catalog(), 16), codecs, cluster.transport(), RpcClientConfig.defaults(),
                cluster.stashAddresses(), WritablePods.ALL, cluster.assignments(),
                new ReadDamageReports(catalog()::enqueueRepair, 64, repairMetrics), registry));
    }

    /** Has {@link #close()} close {@code c} (before the data paths, catalog and cluster); returns it. */
    public <T extends AutoCloseable> T closeLater(T c) {
        closeables.add(c);
        return c;
    }

    /** {@code size} random bytes. */
    public byte[] bytes(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    /** Writes and commits one object, as the S3 layer does, and remembers it for {@link #assertReadBack()}. */
    public StoredFile write(String key, byte[] body) throws Exception {
        StoredFile f = commit(key, writeUncommitted(data, body));
        objects.put(key, body);
        return f;
    }

    /** Writes a file's shards through {@code path} and commits nothing (a writer that died before its commit). */
    public static StoredFile writeUncommitted(ShardDataPath path, byte[] body) throws Exception {
        return path.write(ByteSources.of(body)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Commits {@code f} as object {@code key}'s new version, as the S3 layer does; throws if the catalog refuses. */
    public StoredFile commit(String key, StoredFile f) {
        VaultLayout l = f.layout();
        catalog().putObjectVersion(PutObjectVersion.of(bucket, key, "etag-" + key, ObjectMetadata.EMPTY,
                new FileRef(f.vaultId(), f.fileId(), f.size(), new FileLayout(l.k(), l.m(), l.chunkBytes()),
                        f.missingShards()))).join();
        return f;
    }

    /** Every object written by {@link #write}, by key, in write order. */
    public Map<String, byte[]> objects() {
        return Collections.unmodifiableMap(objects);
    }

    /** The file that object {@code key}'s current version points at, as the catalog has it. */
    public FileRef file(String key) {
        return catalog().getObjectVersion(bucket, key, Optional.empty()).join().parts().get(0).file();
    }

    /** Reads every object written by {@link #write} back through the data path: each must be exact. */
    public void assertReadBack() throws Exception {
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            assertThat(DataPathTesting.read(data, StoredFiles.fromRef(file(o.getKey())))).as(o.getKey())
                    .isEqualTo(o.getValue());
        }
    }

    /**
     * A pod rebuild worker over the vault map as it is now (throttled to {@code bytesPerSecond}, checkpointing
     * every {@code checkpointFiles} files, 4 shards at once, looking for jobs every 100 ms, starting a
     * decommission's catch-up {@link #CATCH_UP_DELAY} after its DONE), closed by {@link #close()}.
     */
    public PodRebuildWorker rebuildWorker(long bytesPerSecond, int checkpointFiles, PodRebuildMetrics metrics) {
        return rebuildWorker(bytesPerSecond, checkpointFiles, Duration.ZERO, metrics);
    }

    /** {@link #rebuildWorker(long, int, PodRebuildMetrics)} with new jobs waiting {@code gatherDelay} for others. */
    public PodRebuildWorker rebuildWorker(long bytesPerSecond, int checkpointFiles, Duration gatherDelay,
                                          PodRebuildMetrics metrics) {
        PodRebuildConfig config = new PodRebuildConfig(bytesPerSecond, Duration.ofMillis(100), checkpointFiles,
                Duration.ofMinutes(1), 4, CATCH_UP_DELAY, gatherDelay);
        return closeLater(PodRebuildWorker.start(config, catalog(), this::leads, vaults(), data, pods(), codecs,
                metrics, CALL_TIMEOUT));
    }

    /**
     * The load both the rebuild and the decommission tests start from: four small (stashed) objects, a
     * large one of several stripes, three parts of 2 MiB, a tiny one and an empty object; returns how many objects.
     */
    public int writeMixedLoad() throws Exception {
        for (int i = 0; i < 4; i++) {
            write("small-" + i, bytes(40_000 + 9_000 * i));
        }
        write("large", bytes(9 * 1024 * 1024 + 4321));
        for (int i = 0; i < 3; i++) {
            write("part-" + i, bytes(2 * 1024 * 1024 + 17 * i));
        }
        // 100 bytes in 16 data chunks of 16: most of its chunks, data and parity alike, are the format's zero padding.
        write("tiny", bytes(100));
        write("empty", new byte[0]);
        return objects().size();
    }

    /** The catalog's row of {@code job}'s pod now. */
    public PodRebuildJob rebuildRow(PodRebuildJob job) {
        return catalog().listPodRebuilds().join().stream()
                .filter(j -> j.vaultId() == job.vaultId() && j.shardIndex() == job.shardIndex())
                .findFirst().orElseThrow();
    }

    /** Waits until {@code job} is DONE; returns its row. */
    public PodRebuildJob awaitDone(PodRebuildJob job) throws InterruptedException {
        awaitTrue("job " + job.jobId() + " done", () -> rebuildRow(job).state() == PodRebuildJob.State.DONE);
        PodRebuildJob done = rebuildRow(job);
        assertThat(done.jobId()).isEqualTo(job.jobId());
        return done;
    }

    /**
     * Leaves shard {@code shard} of {@code f} on the pod at {@code pod} as an interrupted rebuild or copy
     * would: its first chunk only (here with bytes no decode would give, under a valid CRC), which the pod
     * lists like a whole shard.
     */
    public void halfWrite(InetSocketAddress pod, int shard, FileRef f) {
        VaultLayout layout = StoredFiles.fromRef(f).layout();
        assertThat(layout.stripeCount(f.size())).isGreaterThan(1);
        ShardId id = new ShardId(f.vaultId(), f.fileId(), shard);
        pods().delete(pod, id).join();
        byte[] chunk = bytes(layout.chunkLength(f.size(), 0));
        pods().write(pod, id, 0, Crc32c.of(chunk), WriteMode.DURABLE, Unpooled.wrappedBuffer(chunk)).join();
    }

    /** Stops pods {@code pods} cleanly. */
    public void stopPods(int... pods) {
        for (int p : pods) {
            cluster.stopPod(p);
        }
    }

    /**
     * The stash entries of the files {@code fileIds} of the vault, counted per pod slot (shard index) over
     * every stash server's listing; slots without any are left out.
     */
    public Map<Integer, Integer> stashEntriesPerSlot(Set<Long> fileIds) {
        StashClient stash = new StashClient(rpc);
        Map<Integer, Integer> perSlot = new TreeMap<>();
        for (InetSocketAddress server : cluster.stashAddresses()) {
            for (int slot = 0; slot < cluster.podCount(); slot++) {
                Optional<ShardId> after = Optional.empty();
                do {
                    StashPage page = stash.list(server, MiniCluster.VAULT_ID, slot, after, 1000).join();
                    for (StashEntryInfo e : page.entries()) {
                        if (fileIds.contains(e.id().fileId())) {
                            perSlot.merge(slot, 1, Integer::sum);
                        }
                    }
                    after = page.next();
                } while (after.isPresent());
            }
        }
        return perSlot;
    }

    /** Stops every stash server: reads then have only the pods. */
    public void stopStash() {
        for (int s = 0; s < cluster.stashAddresses().size(); s++) {
            cluster.stopStash(s);
        }
    }

    /** Flips (xor 0x5a) the byte at {@code at} of {@code file}, and syncs it. */
    public static void flipByte(Path file, long at) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, at);
            one.flip();
            one.put(0, (byte) (one.get(0) ^ 0x5a));
            ch.write(one, at);
            ch.force(true);
        }
    }

    /** Waits up to {@link #WAIT} for {@code condition}, asking every 50 ms. */
    public static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    /** The directory the test gave. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(closeables);
        Collections.reverse(all);
        all.add(rpc);
        all.add(catalogServer);
        all.add(cluster);
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
}
