package io.shardvault.coordinator.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.common.erasure.ErasureConfig;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcMetrics;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.coordinator.data.DataPathConfig;
import io.shardvault.coordinator.data.FileIdSource;
import io.shardvault.coordinator.data.PodAssignments;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.data.WritablePods;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.PodCrash;
import io.shardvault.pod.PodFiles;
import io.shardvault.pod.PodServer;
import io.shardvault.stash.StashConfig;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.StashServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One vault of real pods and real stash servers on 127.0.0.1, in this JVM, under one directory,
 * plus the coordinator's data paths over them. The pods learn their slot and the stash servers as
 * from a coordinator: by ASSIGN ({@link #assignments()}) once started, and from what they persisted
 * when restarted; no pod setting names them. Pods and stash servers can be stopped cleanly,
 * crashed (a pod: halted, and its unflushed shard files deleted, as a power cut leaves them) and
 * restarted on the same port with the same directories.
 *
 * <p>Use with try-with-resources (or {@link #runWithNewCluster}): {@link #close()} stops everything,
 * whatever state the test left it in. Not thread-safe: drive it from the test thread.
 */
public final class MiniCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MiniCluster.class);
    public static final int VAULT_ID = 1;

    /** What a test may change. */
    public record Options(ErasureLayout erasure, int chunkBytes, int stashServers, Map<String, Object> podSettings,
                          DataPathConfig dataPath, MeterRegistry registry) {
        /**
         * A 16+4 vault of 64 KiB chunks with 2 stash servers. Writes wait up to 2 s for a late pod, not the
         * service's 200 ms: tests expect complete writes, and on a 2-core machine running two test JVMs a pod
         * is now and then that late (seen: a write recording a shard missing); tests of stragglers set their own.
         */
        public static Options defaults() {
            return new Options(new ErasureLayout(16, 4), 64 * 1024, 2, Map.of(),
                    DataPathConfig.defaults().withRpcTimeout(Duration.ofSeconds(5))
                            .withStragglerGrace(Duration.ofSeconds(2)), new SimpleMeterRegistry());
        }

        public Options withPodSettings(Map<String, Object> settings) {
            return new Options(erasure, chunkBytes, stashServers, settings, dataPath, registry);
        }

        public Options withDataPath(DataPathConfig config) {
            return new Options(erasure, chunkBytes, stashServers, podSettings, config, registry);
        }

        /** Every node's meters go to {@code meters} (e.g. a process registry that a test scrapes). */
        public Options withRegistry(MeterRegistry meters) {
            return new Options(erasure, chunkBytes, stashServers, podSettings, dataPath, meters);
        }
    }

    private final Path dir;
    private final Options options;
    private final RpcTransport transport;
    private final RpcClient podStashClient;
    private final MeterRegistry metrics;
    private final List<StashServer> stash = new ArrayList<>();
    private final List<InetSocketAddress> stashAddresses = new ArrayList<>();
    private final List<PodServer> pods = new ArrayList<>();
    private final List<InetSocketAddress> podAddresses = new ArrayList<>();
    /** Each slot's directory name under {@code dir}: {@code pod-i}. */
    private final List<String> podDirs = new ArrayList<>();
    /** Replacements started (decommission targets) by the slot they replace; they run until {@link #close()}. */
    private final Map<Integer, PodServer> replacements = new HashMap<>();
    private PodAssignments assignments;
    private final AtomicLong nextFileId = new AtomicLong(1000);

    /** File ids from this cluster's in-process allocator (a test fixture standing in for the catalog's). */
    public FileIdSource fileIds() {
        return vaultId -> CompletableFuture.completedFuture(nextFileId.getAndIncrement());
    }
    private final ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.defaults());
    private ShardDataPath dataPath;

    private MiniCluster(Path dir, Options options) {
        this.dir = dir;
        this.options = options;
        this.metrics = options.registry();
        this.transport = RpcTransport.create(RpcTransportConfig.defaults());
        this.podStashClient = RpcClient.create(transport, RpcClientConfig.defaults()
                .withRequestTimeout(Duration.ofSeconds(10)),
                RpcMetrics.create(metrics, RpcMetrics.opNames(StashOps.METRIC_NAMES)));
    }

    /** Starts the stash servers, then the n pods, then the data paths. */
    public static MiniCluster start(Path dir, Options options) throws IOException {
        MiniCluster cluster = new MiniCluster(dir, options);
        try {
            for (int s = 0; s < options.stashServers(); s++) {
                StashServer server = cluster.startStash(s, new InetSocketAddress("127.0.0.1", 0));
                cluster.stash.add(server);
                cluster.stashAddresses.add(server.localAddress());
            }
            int n = options.erasure().n();
            for (int i = 0; i < n; i++) {
                cluster.podDirs.add("pod-" + i);
            }
            List<CompletableFuture<PodServer>> starting = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int shard = i;
                starting.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return cluster.startPod("pod-" + shard, 0);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
            for (CompletableFuture<PodServer> f : starting) {
                PodServer pod = f.join();
                cluster.pods.add(pod);
                cluster.podAddresses.add(pod.localAddress());
            }
            cluster.assignments = PodAssignments.forVaults(new PodClient(cluster.podStashClient),
                    List.of(cluster.vault()), cluster.stashAddresses);
            cluster.probePods();
            cluster.dataPath = cluster.newDataPath(options.dataPath());
            LOG.info("mini cluster up: {} pods ({}), {} stash servers, under {}", n, options.erasure(),
                    options.stashServers(), dir);
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts a default cluster in {@code dir}, runs {@code test}, and always shuts the cluster down. */
    public static void runWithNewCluster(Path dir, Options options, ClusterTest test) throws Exception {
        try (MiniCluster cluster = start(dir, options)) {
            try {
                test.run(cluster);
            } catch (Exception | AssertionError e) {
                LOG.error("test failed on {}", cluster.describe());
                throw e;
            }
        }
    }

    /** A test body run against a cluster. */
    @FunctionalInterface
    public interface ClusterTest {
        void run(MiniCluster cluster) throws Exception;
    }

    /** New data paths over this cluster (the cluster closes them). */
    public ShardDataPath newDataPath(DataPathConfig config) {
        return newDataPath(config, vaultId -> CompletableFuture.completedFuture(nextFileId.getAndIncrement()));
    }

    /** New data paths taking file ids from {@code ids} (the cluster closes them). */
    public ShardDataPath newDataPath(DataPathConfig config, FileIdSource ids) {
        return newDataPath(config, ids, vault());
    }

    /** New data paths over {@code vault} (this cluster's, with some pods behind proxies, say). */
    public ShardDataPath newDataPath(DataPathConfig config, FileIdSource ids, Vault vault) {
        ShardDataPath path = ShardDataPath.create(config, VaultDirectory.of(List.of(vault)), ids, codecs, transport,
                RpcClientConfig.defaults(), stashAddresses, WritablePods.ALL, assignments, metrics);
        extraPaths.add(path);
        return path;
    }

    private final List<ShardDataPath> extraPaths = new ArrayList<>();

    /** The vault as the coordinator sees it. */
    public Vault vault() {
        return new Vault(VAULT_ID, new VaultLayout(options.erasure(), options.chunkBytes()), podAddresses);
    }

    /** Which pods took their assignment, as the coordinator tracks it (the data paths' {@code RecoverablePods}). */
    public PodAssignments assignments() {
        return assignments;
    }

    /**
     * What the coordinator's periodic pod probe does: asks every running pod for its STATS and sends
     * ASSIGN to those that report none or another; returns once each answered.
     */
    public void probePods() {
        List<CompletableFuture<Void>> probes = new ArrayList<>();
        PodClient client = new PodClient(podStashClient);
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i) != null) {
                InetSocketAddress pod = podAddresses.get(i);
                probes.add(client.stats(pod).thenCompose(stats -> assignments.observe(pod, stats)));
            }
        }
        CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new)).join();
    }

    /** Pod {@code i} itself, for tests that look inside it (its stats, its state directory). */
    public PodServer pod(int i) {
        return pods.get(i);
    }

    /** Pod {@code i}'s state directory (its purge queue, its persisted assignment). */
    public Path podStateDir(int i) {
        return dir.resolve(podDirs.get(i)).resolve("state");
    }

    /**
     * Starts a replacement for pod {@code i} (a decommission's target): a new pod on a new port with its
     * own empty directories, not in the vault and not assigned yet (it takes durable writes only). Returns
     * its address.
     */
    public InetSocketAddress startReplacement(int i) throws IOException {
        if (replacements.containsKey(i)) {
            throw new IllegalStateException("pod " + i + " has a replacement already");
        }
        PodServer pod = startPod("pod-" + i + "-replacement", 0);
        replacements.put(i, pod);
        return pod.localAddress();
    }

    /** Where pod {@code i}'s running replacement keeps shard {@code id}. */
    public Path replacementShardFile(int i, ShardId id) {
        PodServer pod = replacements.get(i);
        if (pod == null) {
            throw new IllegalStateException("pod " + i + " has no replacement");
        }
        return PodFiles.shardFile(pod, id);
    }

    public ShardDataPath dataPath() {
        return dataPath;
    }

    public MeterRegistry metrics() {
        return metrics;
    }

    public int podCount() {
        return pods.size();
    }

    public InetSocketAddress podAddress(int i) {
        return podAddresses.get(i);
    }

    public List<InetSocketAddress> stashAddresses() {
        return List.copyOf(stashAddresses);
    }

    public RpcTransport transport() {
        return transport;
    }

    /** Whether pod {@code i} is running. */
    public boolean podUp(int i) {
        return pods.get(i) != null;
    }

    /** Stops pod {@code i} cleanly (flushes its buffered writes). */
    public void stopPod(int i) {
        PodServer pod = pods.set(i, null);
        if (pod != null) {
            pod.close();
        }
    }

    /**
     * Crashes pod {@code i}: the process halts wherever it is (mid-write, mid-fsync; no flush, no
     * clean-shutdown marker), its files stay as they are. What the pod acknowledged durably must survive this.
     */
    public void crashPod(int i) {
        PodServer pod = pods.set(i, null);
        if (pod == null) {
            throw new IllegalStateException("pod " + i + " is not running");
        }
        PodCrash.halt(pod);
        LOG.info("pod {} crashed", i);
    }

    /**
     * Crashes pod {@code i} losing every buffered write: the pod halts (no flush, no clean-shutdown
     * marker) and each shard file changed since {@code flushedBefore} is deleted. Use it with a flush
     * interval long enough that nothing was flushed since then: a shard file whose directory entry
     * was never synced is exactly what a power cut removes.
     *
     * @return how many shard files were deleted
     */
    public int crashPodLosingUnflushed(int i, long flushedBeforeMillis) throws IOException {
        crashPod(i);
        int deleted = 0;
        try (Stream<Path> files = Files.walk(tomeDir(i))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".shard")).collect(Collectors.toList())) {
                if (Files.getLastModifiedTime(f).toMillis() >= flushedBeforeMillis) {
                    Files.delete(f);
                    deleted++;
                }
            }
        }
        LOG.info("pod {} crashed; {} unflushed shard files lost", i, deleted);
        return deleted;
    }

    /** Restarts pod {@code i} on its old port with its old directories (recovering from the stash if it crashed). */
    public void restartPod(int i) throws IOException {
        if (pods.get(i) != null) {
            throw new IllegalStateException("pod " + i + " is running");
        }
        pods.set(i, startPod(podDirs.get(i), podAddresses.get(i).getPort()));
        probePods();
    }

    /**
     * Restarts stopped pod {@code i} without its persisted assignment (a pod whose state directory was
     * replaced), and without the coordinator's probe that would assign it again: it takes durable
     * writes only until {@link #probePods()}.
     */
    public void restartPodUnassigned(int i) throws IOException {
        if (pods.get(i) != null) {
            throw new IllegalStateException("pod " + i + " is running");
        }
        Files.deleteIfExists(podStateDir(i).resolve("assignment"));
        pods.set(i, startPod(podDirs.get(i), podAddresses.get(i).getPort()));
    }

    /**
     * Wipes pod {@code i}: stops it, deletes its tome with every shard file on it (a replaced disk; its
     * state directory stays) and starts it again, empty, on its old port.
     */
    public void wipePod(int i) throws IOException {
        stopPod(i);
        try (Stream<Path> files = Files.walk(tomeDir(i))) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(f);
            }
        }
        restartPod(i);
        LOG.info("pod {} wiped and started empty", i);
    }

    /** Where running pod {@code i} keeps shard {@code id} (to damage it on disk). */
    public Path shardFile(int i, ShardId id) {
        PodServer pod = pods.get(i);
        if (pod == null) {
            throw new IllegalStateException("pod " + i + " is not running");
        }
        return PodFiles.shardFile(pod, id);
    }

    public void stopStash(int s) {
        StashServer server = stash.set(s, null);
        if (server != null) {
            server.close();
        }
    }

    public void restartStash(int s) throws IOException {
        if (stash.get(s) != null) {
            throw new IllegalStateException("stash " + s + " is running");
        }
        stash.set(s, startStash(s, stashAddresses.get(s)));
    }

    private Path tomeDir(int i) {
        return dir.resolve(podDirs.get(i)).resolve("tome0");
    }

    private PodServer startPod(String name, int port) throws IOException {
        Map<String, Object> s = new HashMap<>();
        s.put("pod.name", name);
        s.put("pod.bind", "127.0.0.1:" + port);
        s.put("pod.stateDir", dir.resolve(name).resolve("state").toString());
        s.put("pod.tomes", dir.resolve(name).resolve("tome0").toString());
        s.put("pod.purge.retry.min", "20ms");
        s.put("pod.purge.retry.max", "500ms");
        s.put("pod.recovery.timeout", "30s");
        s.put("rpc.drainTimeout", "2s");
        s.putAll(options.podSettings());
        PodConfig config = PodConfig.from(Settings.of(s));
        return retryBind(() -> PodServer.start(transport, config, podStashClient, metrics));
    }

    private StashServer startStash(int s, InetSocketAddress bind) throws IOException {
        StashConfig config = StashConfig.defaults(dir.resolve("stash-" + s));
        return retryBind(() -> StashServer.start(transport, config, bind, metrics));
    }

    private interface Starter<T> {
        T start() throws IOException;
    }

    /** A port just released may linger for a moment; restarts on a fixed port retry for a few seconds. */
    private static <T> T retryBind(Starter<T> starter) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return starter.start();
            } catch (BindException e) {
                if (attempt >= 50) {
                    throw e;
                }
            } catch (IOException e) {
                if (attempt >= 50 || !(e.getCause() instanceof BindException
                        || String.valueOf(e.getMessage()).contains("Address already in use"))) {
                    throw e;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while retrying a bind", e);
            }
        }
    }

    /** One line per node: what is up, for failure dumps. */
    public String describe() {
        StringBuilder out = new StringBuilder("mini cluster under ").append(dir).append(": pods up ");
        for (int i = 0; i < pods.size(); i++) {
            out.append(pods.get(i) != null ? "+" : "-");
        }
        out.append(", stash up ");
        for (StashServer s : stash) {
            out.append(s != null ? "+" : "-");
        }
        return out.toString();
    }

    @Override
    public void close() {
        for (ShardDataPath p : extraPaths) {
            p.close();
        }
        List<PodServer> all = new ArrayList<>(pods);
        all.addAll(replacements.values());
        all.parallelStream().filter(p -> p != null).forEach(PodServer::close);
        for (StashServer s : stash) {
            if (s != null) {
                s.close();
            }
        }
        podStashClient.close();
        transport.close();
    }
}
