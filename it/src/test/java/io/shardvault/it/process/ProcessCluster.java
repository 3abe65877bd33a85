package io.shardvault.it.process;

import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import io.shardvault.coordinator.testing.DelayingProxy;
import io.shardvault.it.netns.NetnsNetwork;
import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A cluster of real processes on 127.0.0.1 (or each on a host of a test network), each service started from
 * the fat JAR the reactor built, as {@code bin/shardvault dev} starts it (the same config file shapes, JVM options and ready lines), under one
 * directory: {@code stash} stash servers, {@code podProcesses} pod processes hosting {@code podsPerProcess}
 * pods each (pod i is shard i of the one vault; process p hosts pods p*podsPerProcess and up), and
 * {@code coordinators} coordinators (1 by default), each a catalog peer of the one group and an S3 endpoint of
 * its own, with remote JMX. Unlike the in-JVM {@code MiniCluster}, a stopped
 * service is a process that is gone: SIGTERM runs its real shutdown, SIGKILL loses what a power cut loses
 * for that process, and a restart reads what it left on disk.
 *
 * <p>Coordinator c (0, 1, ...) is catalog peer {@code c<c+1>}, its files named {@code coordinator-<c>} ({@code
 * coordinator} for c = 0, as in a 1-coordinator cluster); the methods without an index mean coordinator 0.
 * Coordinators added later ({@link #launchAddedCoordinator()}) are started with the group's peers as the test
 * knows them, as an operator names them in a new host's file before {@code admin catalog add-peer}.
 *
 * <p>Addresses other services or clients must find again after a restart (pods, stash servers, the catalog
 * peers, S3, remote JMX) are free loopback ports picked at start; admin HTTP ports are ephemeral. Secrets
 * (the S3 secret key, the JMX password) reach the coordinator and the admin CLI through their environment,
 * as {@code bin/shardvault} passes them, never on a command line. Logs: {@code dir/logs/<service>.log}; a
 * failed start or wait reports the tail of the log concerned.
 *
 * <p>On a test network ({@link Options#withNetns}, root only) each stash server, pod process and coordinator
 * is a host of a {@link NetnsNetwork} instead, started under {@code ip netns exec}, listening on its own address
 * ({@code security.insecure = true}: plaintext beyond loopback, as the loopback cluster's) with the same ports;
 * this JVM is a host of it too, so its clients, JMX connections and delaying proxies reach every other, and
 * {@link #linkDown} cuts a host off from all of them, this JVM included, its processes running on. Coordinators
 * added later ({@link #launchAddedCoordinator}) are loopback only.
 *
 * <p>Use with try-with-resources: {@link #close()} stops every process still running (the coordinators first,
 * then pods, then stash servers), whatever state the test left. Not thread-safe: drive it from the test
 * thread.
 */
public final class ProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);
    public static final int VAULT_ID = 0;
    public static final String ACCESS_KEY = S3Cluster.ACCESS_KEY;
    public static final String JMX_USER = "admin";
    private static final ObjectName CATALOG_MBEAN = MBeanRegistrations.name("Catalog", "catalog");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final String LOOPBACK = "127.0.0.1";
    /** The test network's namespaces: a family of their own, so that other tests' are not taken for leftovers. */
    private static final String NETNS_FAMILY = "svproc-";
    /** TEST-NET-2, apart from NetnsCluster's TEST-NET-1: this JVM's route to it cannot clash with that test's. */
    private static final String SUBNET = "198.51.100.";
    /** This JVM's host on the test network. */
    private static final String TEST_HOST = "test";
    /** Set by it/pom.xml (failsafe): where the reactor's modules are, and their version. */
    public static final String ROOT_PROPERTY = "shardvault.root";
    public static final String VERSION_PROPERTY = "shardvault.version";

    /**
     * What a test may choose. {@code podConf} and {@code coordinatorConf} are HOCON lines added to every pod's
     * and to the coordinator's file (as {@code SHARDVAULT_POD_CONF} and {@code SHARDVAULT_COORDINATOR_CONF} do
     * for the dev cluster). {@code delayablePods}: the pods coordinators reach through a {@link DelayingProxy}
     * in the test's JVM, from their first start, so that a test can make them slow ({@link #delayPod}).
     * {@code fillableTomes}: the pods whose tome is a {@link FillableTome} from their first start (root only),
     * so that a test can fill it ({@link #fillTome}). {@code netns}: each service on a host of a test network.
     */
    public record Options(int stashServers, int podProcesses, int podsPerProcess, String layout,
                          List<String> podConf, List<String> coordinatorConf, int coordinators,
                          List<Integer> delayablePods, List<Integer> fillableTomes, boolean netns) {
        public Options {
            if (coordinators < 1) {
                throw new IllegalArgumentException("at least one coordinator: " + coordinators);
            }
            delayablePods = List.copyOf(delayablePods);
            fillableTomes = List.copyOf(fillableTomes);
        }

        /** No fillable tome. */
        public Options(int stashServers, int podProcesses, int podsPerProcess, String layout, List<String> podConf,
                       List<String> coordinatorConf, int coordinators, List<Integer> delayablePods) {
            this(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf, coordinators,
                    delayablePods, List.of(), false);
        }

        /** No delayable pod. */
        public Options(int stashServers, int podProcesses, int podsPerProcess, String layout, List<String> podConf,
                       List<String> coordinatorConf, int coordinators) {
            this(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf, coordinators,
                    List.of());
        }

        /** One coordinator. */
        public Options(int stashServers, int podProcesses, int podsPerProcess, String layout, List<String> podConf,
                       List<String> coordinatorConf) {
            this(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf, 1);
        }

        /** One 16+4 vault on 5 pod processes of 4 pods, 2 stash servers, pods flushing every 50 ms. */
        public static Options defaults() {
            return new Options(2, 5, 4, "16+4", List.of("pod.flush.interval = 50ms", "pod.purge.linger = 20ms",
                    "pod.purge.retry.min = 20ms", "pod.purge.retry.max = 500ms"), List.of());
        }

        public Options withCoordinatorConf(String... lines) {
            List<String> all = new ArrayList<>(coordinatorConf);
            all.addAll(List.of(lines));
            return new Options(stashServers, podProcesses, podsPerProcess, layout, podConf, all, coordinators,
                    delayablePods, fillableTomes, netns);
        }

        /** {@code n} coordinators, each a peer of the one catalog group. */
        public Options withCoordinators(int n) {
            return new Options(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf, n,
                    delayablePods, fillableTomes, netns);
        }

        /** These pods behind a {@link DelayingProxy} each ({@link #delayPod}). */
        public Options withDelayablePods(Integer... pods) {
            return new Options(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf,
                    coordinators, List.of(pods), fillableTomes, netns);
        }

        /** These pods' tomes on a {@link FillableTome} each ({@link #fillTome}); mounting them takes root. */
        public Options withFillableTomes(Integer... pods) {
            return new Options(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf,
                    coordinators, delayablePods, List.of(pods), netns);
        }

        /** Each service on a host of its own of a test network ({@link NetnsNetwork}); needs root. */
        public Options withNetns() {
            return new Options(stashServers, podProcesses, podsPerProcess, layout, podConf, coordinatorConf,
                    coordinators, delayablePods, fillableTomes, true);
        }
    }

    /** One coordinator's fixed addresses: they stay across its restarts. */
    private record CoordinatorPorts(int catalog, int s3, int jmx) {
    }

    private final Path dir;
    private final Options options;
    private final String secretKey;
    private final String jmxPassword;
    private final List<Integer> stashPorts = new ArrayList<>();
    private final List<Integer> podPorts = new ArrayList<>();
    private final List<ServiceProcess> stash = new ArrayList<>();
    /** Every port handed to a service of this cluster. */
    private final Set<Integer> pickedPorts = new HashSet<>();
    private final List<ServiceProcess> podProcesses = new ArrayList<>();
    /** Every coordinator ever added, by index; a removed one keeps its slot. */
    private final List<CoordinatorPorts> coordinatorPorts = new ArrayList<>();
    private final List<ServiceProcess> coordinators = new ArrayList<>();
    private final List<URI> coordinatorAdmins = new ArrayList<>();
    /** The coordinators a newly started one is told are the catalog's peers. */
    private final List<Integer> catalogPeers = new ArrayList<>();
    /** The proxies of the delayable pods, by pod, and their transport (null without any). */
    private final Map<Integer, DelayingProxy> proxies = new HashMap<>();
    private RpcTransport proxyTransport;
    /** The fillable tomes, by pod, mounted before their pods' first start. */
    private final Map<Integer, FillableTome> fillableTomes = new HashMap<>();
    /** The test network each service is a host of, or null: every service on loopback. */
    private NetnsNetwork network;

    private ProcessCluster(Path dir, Options options) throws IOException {
        this.dir = dir;
        this.options = options;
        // Fresh per cluster: nothing a reader of the logs or the command lines could reuse elsewhere.
        this.secretKey = "it-secret-" + UUID.randomUUID();
        this.jmxPassword = "it-jmx-" + UUID.randomUUID();
        for (int s = 0; s < options.stashServers(); s++) {
            stashPorts.add(distinctFreePort());
            stash.add(null);
        }
        for (int i = 0; i < options.podProcesses() * options.podsPerProcess(); i++) {
            podPorts.add(distinctFreePort());
        }
        for (int p = 0; p < options.podProcesses(); p++) {
            podProcesses.add(null);
        }
        for (int c = 0; c < options.coordinators(); c++) {
            catalogPeers.add(newCoordinatorSlot());
        }
    }

    private int newCoordinatorSlot() throws IOException {
        coordinatorPorts.add(new CoordinatorPorts(distinctFreePort(), distinctFreePort(), distinctFreePort()));
        coordinators.add(null);
        coordinatorAdmins.add(null);
        return coordinatorPorts.size() - 1;
    }

    /**
     * A free loopback port none of this cluster's services was given yet: a port is free when picked and bound
     * only later by its process, so two picks in a row can return the same one (it happened: two pods, one port).
     */
    private int distinctFreePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = FreePorts.loopback();
            if (pickedPorts.add(port)) {
                return port;
            }
        }
        throw new IOException("no distinct free loopback port in 100 attempts");
    }

    /**
     * Starts the stash servers, the pod processes, then the coordinators (all of them before waiting for any:
     * a coordinator is ready only once its catalog has a leader, which takes a majority of the peers), each
     * waited for by its ready line.
     *
     * @throws IllegalStateException when a fat JAR is missing (the reactor did not package its module)
     */
    public static ProcessCluster start(Path dir, Options options) throws IOException, InterruptedException,
            TimeoutException {
        for (String module : List.of("stash", "pod", "coordinator")) {
            jar(module);
        }
        ProcessCluster cluster = new ProcessCluster(dir, options);
        try {
            if (options.netns()) {
                cluster.makeNetwork();
            }
            for (int s = 0; s < options.stashServers(); s++) {
                cluster.startStash(s);
            }
            for (int pod : options.fillableTomes()) {
                cluster.fillableTomes.put(pod, FillableTome.mount(cluster.tomeDir(pod), cluster.log("tome-" + pod)));
            }
            for (int p = 0; p < options.podProcesses(); p++) {
                cluster.startPodProcess(p);
            }
            cluster.startProxies();
            for (int c = 0; c < options.coordinators(); c++) {
                cluster.launchCoordinator(c);
            }
            for (int c = 0; c < options.coordinators(); c++) {
                cluster.awaitCoordinator(c);
            }
            return cluster;
        } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** A host on the test network for this JVM and each service, with the next address of {@link #SUBNET}. */
    private void makeNetwork() throws IOException, InterruptedException {
        network = NetnsNetwork.create(NETNS_FAMILY);
        network.joinRoot(TEST_HOST, SUBNET + 1);
        List<String> hosts = new ArrayList<>();
        IntStream.range(0, stash.size()).mapToObj(ProcessCluster::stashHost).forEach(hosts::add);
        IntStream.range(0, podProcesses.size()).mapToObj(ProcessCluster::podHost).forEach(hosts::add);
        IntStream.range(0, coordinators.size()).mapToObj(ProcessCluster::coordinatorHost).forEach(hosts::add);
        for (int h = 0; h < hosts.size(); h++) {
            network.addHost(hosts.get(h), SUBNET + (10 + h));
        }
    }

    /** Stash server {@code s}'s host (on a test network). */
    public static String stashHost(int s) {
        return "stash-" + s;
    }

    /** Pod process {@code p}'s host (on a test network). */
    public static String podHost(int p) {
        return "pods-" + p;
    }

    /** Coordinator {@code c}'s host (on a test network). */
    public static String coordinatorHost(int c) {
        return "coord-" + c;
    }

    /** Where {@code host}'s services listen and are reached: its address on the test network, or loopback. */
    private String address(String host) {
        return network == null ? LOOPBACK : network.address(host);
    }

    /** What starts a process on {@code host}: nothing on loopback, {@code ip netns exec} on a test network. */
    private List<String> launcher(String host) {
        return network == null ? List.of() : network.onHost(host, List.of());
    }

    /**
     * Settings ({@code key=value}: a {@code --set} and a HOCON line alike) every service needs to listen where it
     * does: plaintext beyond loopback, on a test network.
     */
    private List<String> listenerConf() {
        return network == null ? List.of() : List.of("security.insecure=true");
    }

    /** Whether {@link #linkDown} can cut hosts off: each service is on a host of a test network. */
    public boolean partitionable() {
        return network != null;
    }

    /**
     * Cuts {@code host} ({@link #stashHost}, {@link #podHost}, {@link #coordinatorHost}) off from every other host
     * and this JVM, as a pulled cable: its processes run on, unreached and unreaching, until {@link #linkUp}.
     */
    public void linkDown(String host) throws IOException, InterruptedException {
        requireNetwork().linkDown(host);
    }

    public void linkUp(String host) throws IOException, InterruptedException {
        requireNetwork().linkUp(host);
    }

    private NetnsNetwork requireNetwork() {
        if (network == null) {
            throw new IllegalStateException("this cluster is on loopback: no link to cut (Options.withNetns)");
        }
        return network;
    }

    /**
     * The fat JAR of {@code module} ({@code stash}, {@code pod}, {@code coordinator}) as the reactor's package
     * phase leaves it.
     *
     * @throws IllegalStateException when it is missing: these tests must fail, not skip, without it
     */
    static Path jar(String module) {
        String root = System.getProperty(ROOT_PROPERTY);
        String version = System.getProperty(VERSION_PROPERTY);
        if (root == null || version == null) {
            throw new IllegalStateException("system properties " + ROOT_PROPERTY + " and " + VERSION_PROPERTY
                    + " are not set: run this test through Maven (it/pom.xml sets them for failsafe)");
        }
        Path jar = Path.of(root, module, "target", "shardvault-" + module + "-" + version + "-all.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the fat JAR " + jar + " is missing: build it with the reactor, e.g."
                    + " ./mvnw -pl it -am verify (the " + module + " module's package phase makes it)");
        }
        return jar;
    }

    /** The JVM options of a service, after bin/shardvault's service_memory, sized down for a test machine. */
    private static List<String> jvm(String heap) {
        // C1 only and the serial collector: a dozen short-lived JVMs share two cores, and none lives long
        // enough to repay C2 compilations or parallel GC threads.
        return List.of("-Xms32m", "-Xmx" + heap, "-XX:MaxDirectMemorySize=256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dio.netty.allocator.lowMemory=false", "-Dio.netty.leakDetection.level=disabled");
    }

    // ---- stash servers

    public void startStash(int s) throws IOException, InterruptedException, TimeoutException {
        requireStopped(stash.get(s), "stash " + s);
        String address = address(stashHost(s));
        List<String> args = new ArrayList<>(List.of("-jar", jar("stash").toString(), "--bind",
                address + ":" + stashPorts.get(s), "--data", dir.resolve("stash-" + s).toString(),
                "--set", "admin.bind=" + address + ":0",
                "--set", "stash.rocksdb.writeBufferBytes=8MiB", "--set", "stash.rocksdb.blockCacheBytes=8MiB"));
        for (String setting : listenerConf()) {
            args.addAll(List.of("--set", setting));
        }
        ServiceProcess p = ServiceProcess.start("stash-" + s, launcher(stashHost(s)), jvm("128m"), args, Map.of(),
                log("stash-" + s));
        stash.set(s, p);
        p.awaitLine("stash listening on", START_TIMEOUT);
    }

    /** SIGTERM to stash server {@code s}, waited for. */
    public void stopStash(int s) {
        stop(stash.get(s));
    }

    /** SIGKILL to stash server {@code s}, now. */
    public void killStash(int s) {
        stash.get(s).kill();
    }

    public int stashCount() {
        return stash.size();
    }

    // ---- pods

    public int podCount() {
        return podPorts.size();
    }

    /** The pod process that hosts pod {@code pod}. */
    public int podProcessOf(int pod) {
        return pod / options.podsPerProcess();
    }

    /** The pods pod process {@code p} hosts. */
    public List<Integer> podsOf(int p) {
        return IntStream.range(p * options.podsPerProcess(), (p + 1) * options.podsPerProcess()).boxed()
                .collect(Collectors.toList());
    }

    /** Starts pod process {@code p} with its config files (written anew, the same each time); waits for every pod. */
    public void startPodProcess(int p) throws IOException, InterruptedException, TimeoutException {
        requireStopped(podProcesses.get(p), "pod process " + p);
        List<String> args = new ArrayList<>(List.of("-jar", jar("pod").toString()));
        for (int i : podsOf(p)) {
            args.add("--config");
            args.add(writePodConf(i, i == podsOf(p).get(0)).toString());
        }
        ServiceProcess process = ServiceProcess.start("pods-" + p, launcher(podHost(p)), jvm("192m"), args, Map.of(),
                log("pods-" + p));
        podProcesses.set(p, process);
        for (int i : podsOf(p)) {
            process.awaitLine("pod pod-" + i + " listening", START_TIMEOUT);
        }
    }

    /** SIGTERM to pod process {@code p} (its pods flush and stop cleanly), waited for. */
    public void stopPodProcess(int p) {
        stop(podProcesses.get(p));
    }

    /** SIGKILL to pod process {@code p}, now: what its pods buffered is lost, their page cache is not. */
    public void killPodProcess(int p) {
        podProcesses.get(p).kill();
    }

    public int podProcessCount() {
        return podProcesses.size();
    }

    /**
     * A power cut of pod process {@code p}'s host, as far as files can show it: SIGKILL, then every shard file
     * of its pods last modified at or after {@code flushedBeforeMillis} (the page cache's content, unsynced or
     * not, a test cannot tell) is deleted, as {@code MiniCluster.crashPodLosingUnflushed} does in one JVM. A
     * file's partly lost tail and directory entries of older files are not modelled.
     *
     * @return how many shard files were deleted
     */
    public int killPodProcessLosingUnflushed(int p, long flushedBeforeMillis) throws IOException {
        killPodProcess(p);
        int deleted = 0;
        for (int pod : podsOf(p)) {
            if (!Files.isDirectory(tomeDir(pod))) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tomeDir(pod))) {
                for (Path f : files.filter(shard -> shard.toString().endsWith(".shard")).collect(Collectors.toList())) {
                    if (Files.getLastModifiedTime(f).toMillis() >= flushedBeforeMillis && Files.deleteIfExists(f)) {
                        deleted++;
                    }
                }
            }
        }
        LOG.info("pod process {} lost power; {} shard files modified since {} deleted", p, deleted, flushedBeforeMillis);
        return deleted;
    }

    /**
     * Deletes every file on pod {@code pod}'s tome (a replaced disk; its state directory stays). Its process
     * must be stopped.
     *
     * @return how many files were deleted
     */
    public int wipeTomes(int pod) throws IOException {
        ServiceProcess p = podProcesses.get(podProcessOf(pod));
        if (p != null && p.isAlive()) {
            throw new IllegalStateException("pod process " + podProcessOf(pod) + " of pod " + pod + " is running");
        }
        Path tome = tomeDir(pod);
        int files = 0;
        try (Stream<Path> all = Files.walk(tome)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                if (Files.isRegularFile(f)) {
                    files++;
                }
                Files.delete(f);
            }
        }
        LOG.info("pod {}: tome {} wiped, {} files deleted", pod, tome, files);
        return files;
    }

    private Path tomeDir(int pod) {
        return dir.resolve("pod-" + pod).resolve("tome0");
    }

    /**
     * The delayable pods' proxies, before any coordinator starts: the first start writes the pods' addresses
     * into the catalog, and from then on those win over {@code coordinator.vault.pods}.
     */
    private void startProxies() throws IOException {
        if (options.delayablePods().isEmpty()) {
            return;
        }
        proxyTransport = RpcTransport.create(RpcTransportConfig.defaults());
        for (int pod : options.delayablePods()) {
            proxies.put(pod, new DelayingProxy(proxyTransport, new InetSocketAddress(address(TEST_HOST), 0),
                    new InetSocketAddress(podAddress(pod), podPorts.get(pod))));
        }
    }

    /** Where coordinators reach pod {@code i}: its proxy when it is delayable. */
    private String podEndpoint(int i) {
        DelayingProxy proxy = proxies.get(i);
        return proxy == null ? podAddress(i) + ":" + podPorts.get(i)
                : address(TEST_HOST) + ":" + proxy.address().getPort();
    }

    /** The address pod {@code i} listens on: its process's host's. */
    private String podAddress(int i) {
        return address(podHost(podProcessOf(i)));
    }

    /**
     * From now on every request a coordinator sends pod {@code pod} waits {@code delay} before it is forwarded
     * (zero: none). The pod must be one of {@link Options#delayablePods()}.
     */
    public void delayPod(int pod, Duration delay) {
        DelayingProxy proxy = proxies.get(pod);
        if (proxy == null) {
            throw new IllegalArgumentException("pod " + pod + " is not delayable: " + options.delayablePods());
        }
        proxy.delay(delay);
    }

    /**
     * Fills pod {@code pod}'s tome: it holds what it holds and takes nothing more until {@link #growTome}. The
     * pod must be one of {@link Options#fillableTomes()}. Returns the bytes it holds.
     */
    public long fillTome(int pod) throws IOException, InterruptedException, TimeoutException {
        return fillableTome(pod).fill();
    }

    /** Gives pod {@code pod}'s tome, filled by {@link #fillTome}, its room back. */
    public void growTome(int pod) throws IOException, InterruptedException, TimeoutException {
        fillableTome(pod).grow();
    }

    /** The pods whose tomes {@link #fillTome} can fill. */
    public List<Integer> fillableTomes() {
        return options.fillableTomes();
    }

    private FillableTome fillableTome(int pod) {
        FillableTome tome = fillableTomes.get(pod);
        if (tome == null) {
            throw new IllegalArgumentException("pod " + pod + "'s tome is not fillable: " + options.fillableTomes());
        }
        return tome;
    }

    /** The pods {@link #delayPod} can slow. */
    public List<Integer> delayablePods() {
        return options.delayablePods();
    }

    /** A pod's file as bin/shardvault writes it; the admin port (ephemeral here) in the process's first. */
    private Path writePodConf(int i, boolean first) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "pod.name = \"pod-" + i + "\"",
                "pod.bind = \"" + podAddress(i) + ":" + podPorts.get(i) + "\"",
                "pod.stateDir = \"" + dir.resolve("pod-" + i).resolve("state") + "\"",
                "pod.tomes = \"" + tomeDir(i) + "\""));
        lines.addAll(options.podConf());
        lines.addAll(listenerConf());
        if (first) {
            lines.add("admin.bind = \"" + podAddress(i) + ":0\"");
        }
        return writeConf("pod-" + i + ".conf", lines);
    }

    // ---- coordinators

    /** How many coordinators this cluster has had (started, stopped or removed). */
    public int coordinatorCount() {
        return coordinators.size();
    }

    /** Coordinator {@code c}'s catalog peer id. */
    public static String peerId(int c) {
        return "c" + (c + 1);
    }

    /** Coordinator {@code c}'s catalog peer as {@code id=host:port}. */
    public String peerSpec(int c) {
        return peerId(c) + "=" + coordinatorAddress(c) + ":" + coordinatorPorts.get(c).catalog();
    }

    /** Where coordinator {@code c} listens: its host's address; loopback for one added later. */
    private String coordinatorAddress(int c) {
        return c < options.coordinators() ? address(coordinatorHost(c)) : LOOPBACK;
    }

    private static String coordinatorName(int c) {
        return c == 0 ? "coordinator" : "coordinator-" + c;
    }

    /** Starts coordinator 0 (again: same catalog directory and ports); waits for its S3 endpoint. */
    public void startCoordinator() throws IOException, InterruptedException, TimeoutException {
        startCoordinator(0);
    }

    /** Starts coordinator {@code c} (again: same catalog directory and ports); waits for its S3 endpoint. */
    public void startCoordinator(int c) throws IOException, InterruptedException, TimeoutException {
        launchCoordinator(c);
        awaitCoordinator(c);
    }

    /**
     * Starts a new coordinator and returns its index: the next one, the next peer id, its own ports and catalog
     * directory, and for its peers every coordinator of {@link #catalogPeers()} and itself. It is not waited for:
     * it becomes ready ({@link #awaitCoordinator}) only once the group has it ({@code admin catalog add-peer}),
     * as before that it hears from no leader.
     */
    public int launchAddedCoordinator() throws IOException {
        if (network != null) {
            throw new IllegalStateException("a coordinator added later would be on loopback, out of the test network");
        }
        int c = newCoordinatorSlot();
        catalogPeers.add(c);
        launchCoordinator(c);
        return c;
    }

    /** Leaves coordinator {@code c} out of the peers later starts name (after {@code admin catalog remove-peer}). */
    public void forgetCatalogPeer(int c) {
        catalogPeers.remove(Integer.valueOf(c));
    }

    /** The coordinators a coordinator started now is told make up the catalog group. */
    public List<Integer> catalogPeers() {
        return List.copyOf(catalogPeers);
    }

    private void launchCoordinator(int c) throws IOException {
        String name = coordinatorName(c);
        requireStopped(coordinators.get(c), name);
        CoordinatorPorts ports = coordinatorPorts.get(c);
        List<String> lines = new ArrayList<>(List.of(
                "coordinator.vault.id = " + VAULT_ID,
                "coordinator.vault.layout = \"" + options.layout() + "\"",
                "coordinator.vault.pods = \"" + IntStream.range(0, podPorts.size()).mapToObj(this::podEndpoint)
                        .collect(Collectors.joining(",")) + "\"",
                "coordinator.stash.servers = \"" + IntStream.range(0, stashPorts.size())
                        .mapToObj(s -> address(stashHost(s)) + ":" + stashPorts.get(s))
                        .collect(Collectors.joining(",")) + "\"",
                "catalog.peerId = \"" + peerId(c) + "\"",
                "catalog.peers = \"" + catalogPeers.stream().map(this::peerSpec).collect(Collectors.joining(","))
                        + "\"",
                "catalog.dataDir = \"" + dir.resolve(c == 0 ? "catalog" : "catalog-" + c) + "\"",
                "catalog.secrets.keyFile = \"" + ClusterKeyFile.in(dir) + "\"",
                "s3.bindHost = \"" + coordinatorAddress(c) + "\"",
                "s3.port = " + ports.s3(),
                "admin.bind = \"" + coordinatorAddress(c) + ":0\"",
                "audit.file = \"" + dir.resolve("logs").resolve(c == 0 ? "audit.json" : "audit-" + c + ".json") + "\""));
        lines.addAll(options.coordinatorConf());
        lines.addAll(listenerConf());
        // As bin/shardvault: the file names the variables, the config loader substitutes them; last, so they win.
        lines.add("coordinator.secretKey = ${SHARDVAULT_IT_COORDINATOR_SECRET_KEY}");
        lines.add("jmx.remote.password = ${SHARDVAULT_IT_COORDINATOR_JMX_PASSWORD}");
        Path conf = writeConf(name + ".conf", lines);
        List<String> args = List.of("-jar", jar("coordinator").toString(), "--config", conf.toString(),
                "--set", "coordinator.accessKey=" + ACCESS_KEY, "--set", "jmx.remote.enabled=true",
                "--set", "jmx.remote.bind=" + coordinatorAddress(c) + ":" + ports.jmx(), "--set", "jmx.remote.user=" + JMX_USER);
        Map<String, String> env = Map.of("SHARDVAULT_IT_COORDINATOR_SECRET_KEY", secretKey,
                "SHARDVAULT_IT_COORDINATOR_JMX_PASSWORD", jmxPassword);
        coordinators.set(c, ServiceProcess.start(name, c < options.coordinators() ? launcher(coordinatorHost(c))
                : List.of(), jvm("256m"), args, env, log(name)));
    }

    /** Waits for coordinator {@code c}'s admin port and S3 endpoint. */
    public void awaitCoordinator(int c) throws IOException, InterruptedException, TimeoutException {
        ServiceProcess p = coordinators.get(c);
        coordinatorAdmins.set(c, URI.create("http://" + p.awaitLine("admin listening on", START_TIMEOUT)));
        p.awaitLine("coordinator S3 endpoint ready on", START_TIMEOUT);
    }

    /** SIGKILL to coordinator 0, now: whatever it was doing stops where it is. */
    public void killCoordinator() {
        killCoordinator(0);
    }

    /** SIGKILL to coordinator {@code c}, now. */
    public void killCoordinator(int c) {
        coordinators.get(c).kill();
    }

    /** SIGTERM to coordinator 0, waited for. */
    public void stopCoordinator() {
        stopCoordinator(0);
    }

    /** SIGTERM to coordinator {@code c}, waited for. */
    public void stopCoordinator(int c) {
        stop(coordinators.get(c));
    }

    public ServiceProcess coordinator() {
        return coordinator(0);
    }

    public ServiceProcess coordinator(int c) {
        return coordinators.get(c);
    }

    /** An AWS SDK v2 client of coordinator 0's S3 endpoint (the same port across restarts); the caller closes it. */
    public S3Client s3Client() {
        return s3Client(0);
    }

    /** An AWS SDK v2 client of coordinator {@code c}'s S3 endpoint; the caller closes it. */
    public S3Client s3Client(int c) {
        return s3Client(c, ACCESS_KEY, secretKey);
    }

    /**
     * A client whose SDK never retries, each call bounded by {@code apiCallTimeout}: every attempt is the caller's
     * to see (a chaos history). The caller closes it.
     */
    public S3Client s3ClientWithoutRetries(Duration apiCallTimeout) {
        return s3ClientWithoutRetries(0, apiCallTimeout);
    }

    /** The same of coordinator {@code c}'s S3 endpoint. */
    public S3Client s3ClientWithoutRetries(int c, Duration apiCallTimeout) {
        return S3Cluster.syncClient(s3Endpoint(c), ACCESS_KEY,
                secretKey,
                o -> o.apiCallTimeout(apiCallTimeout).retryStrategy(AwsRetryStrategy.doNotRetry()));
    }

    private URI s3Endpoint(int c) {
        return URI.create("http://" + coordinatorAddress(c) + ":" + coordinatorPorts.get(c).s3());
    }

    /** The same with another access key (one made with {@code admin keys create}); the caller closes it. */
    public S3Client s3Client(String accessKey, String secret) {
        return s3Client(0, accessKey, secret);
    }

    private S3Client s3Client(int c, String accessKey, String secret) {
        return S3Cluster.syncClient(s3Endpoint(c), accessKey, secret,
                Duration.ofSeconds(60));
    }

    /** The cluster key file the coordinators read ({@code catalog.secrets.keyFile}), for rotation tests. */
    public Path clusterKeyFile() {
        return ClusterKeyFile.in(dir);
    }

    /** The secrets this cluster's processes hold (the S3 secret key, the JMX password), to look for where none may be. */
    public List<String> secrets() {
        return List.of(secretKey, jmxPassword);
    }

    /** A remote JMX connection to coordinator 0, as the admin user; the caller closes it. */
    public JMXConnector connectJmx() throws IOException {
        return connectJmx(0);
    }

    /** A remote JMX connection to coordinator {@code c}, as the admin user; the caller closes it. */
    public JMXConnector connectJmx(int c) throws IOException {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + jmxAddress(c)
                + "/jmxrmi");
        return JMXConnectorFactory.connect(url, Map.of(JMXConnector.CREDENTIALS, new String[] {JMX_USER, jmxPassword}));
    }

    private String jmxAddress(int c) {
        return coordinatorAddress(c) + ":" + coordinatorPorts.get(c).jmx();
    }

    /**
     * The running coordinator whose catalog peer leads, once exactly one says so (its Catalog MBean's role);
     * waits up to {@code timeout}, through an election.
     *
     * @throws TimeoutException when no single running coordinator leads within it
     */
    public int catalogLeader(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> roles = new ArrayList<>();
        while (true) {
            roles.clear();
            List<Integer> leaders = new ArrayList<>();
            for (int c = 0; c < coordinators.size(); c++) {
                ServiceProcess p = coordinators.get(c);
                String role = p == null || !p.isAlive() ? "STOPPED" : catalogAttribute(c, "Role");
                roles.add(peerId(c) + "=" + role);
                if (role.equals("LEADER")) {
                    leaders.add(c);
                }
            }
            if (leaders.size() == 1) {
                return leaders.get(0);
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("no single catalog leader within " + timeout + ": " + roles);
            }
            Thread.sleep(100);
        }
    }

    /** An attribute of coordinator {@code c}'s Catalog MBean, as text; UNREACHABLE when its JMX does not answer. */
    public String catalogAttribute(int c, String attribute) {
        try (JMXConnector jmx = connectJmx(c)) {
            return String.valueOf(jmx.getMBeanServerConnection().getAttribute(CATALOG_MBEAN, attribute));
        } catch (IOException | JMException e) {
            return "UNREACHABLE";
        }
    }

    /** Coordinator 0's Prometheus scrape ({@code /metrics} on its admin port). */
    public String coordinatorMetrics() throws IOException, InterruptedException {
        return scrape("the coordinator", coordinatorAdmins.get(0));
    }

    /**
     * The Prometheus scrape of every running process (stash servers, pod processes, coordinator), by process
     * name, each from the admin port its first run line names.
     */
    public Map<String, String> allMetrics() throws IOException, InterruptedException, TimeoutException {
        Map<String, String> out = new LinkedHashMap<>();
        List<ServiceProcess> running = new ArrayList<>(stash);
        running.addAll(podProcesses);
        running.addAll(coordinators);
        for (ServiceProcess p : running) {
            if (p != null && p.isAlive()) {
                URI admin = URI.create("http://" + p.awaitLine("admin listening on", START_TIMEOUT));
                out.put(p.name(), scrape(p.name(), admin));
            }
        }
        return out;
    }

    private static String scrape(String who, URI admin) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(admin.resolve(
                "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /metrics of " + who + ": " + r.statusCode());
        }
        return r.body();
    }

    /** What an admin CLI run printed, and its exit status. */
    public record AdminRun(int exit, String output) {
    }

    /**
     * Runs {@code shardvault admin ARGS} as bin/shardvault does: the CLI main from the coordinator's fat JAR,
     * in a process of its own, against coordinator 0's remote JMX, the credentials in its environment.
     */
    public AdminRun admin(String... args) throws IOException, InterruptedException, TimeoutException {
        return adminVia(0, args);
    }

    /** {@link #admin} against coordinator {@code c}'s remote JMX. */
    public AdminRun adminVia(int c, String... args) throws IOException, InterruptedException, TimeoutException {
        List<String> all = new ArrayList<>(List.of("-cp", jar("coordinator").toString(),
                "io.shardvault.coordinator.admin.cli.AdminCli"));
        Collections.addAll(all, args);
        all.addAll(List.of("--jmx", jmxAddress(c)));
        ServiceProcess cli = ServiceProcess.start("admin " + String.join(" ", args), List.of(),
                List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), all,
                Map.of("SHARDVAULT_JMX_USER", JMX_USER, "SHARDVAULT_JMX_PASSWORD", jmxPassword), log("admin"));
        int exit;
        try {
            exit = cli.awaitExit(Duration.ofSeconds(60));
        } catch (TimeoutException e) {
            cli.kill();
            throw e;
        }
        return new AdminRun(exit, cli.output());
    }

    // ---- all

    /** Each running service's log tail, for failure messages. */
    public String describe() throws IOException {
        StringBuilder out = new StringBuilder("process cluster under ").append(dir).append('\n');
        List<ServiceProcess> all = new ArrayList<>(stash);
        all.addAll(podProcesses);
        all.addAll(coordinators);
        for (ServiceProcess p : all) {
            if (p != null) {
                out.append(p.name()).append(p.isAlive() ? " running" : " stopped").append("; ").append(p.tail())
                        .append('\n');
            }
        }
        return out.toString();
    }

    /** Stops the coordinators, then the pod processes, then the stash servers (as bin/shardvault does). */
    @Override
    public void close() {
        List<ServiceProcess> order = new ArrayList<>(coordinators);
        order.addAll(podProcesses);
        order.addAll(stash);
        for (ServiceProcess p : order) {
            if (p != null) {
                try {
                    p.stop();
                } catch (RuntimeException e) {
                    LOG.warn("could not stop {}: {}", p.name(), e.toString());
                }
            }
        }
        proxies.values().forEach(DelayingProxy::close);
        if (proxyTransport != null) {
            proxyTransport.close();
        }
        fillableTomes.values().forEach(FillableTome::close);
        if (network != null) {
            network.close();
        }
    }

    private static void stop(ServiceProcess p) {
        if (p != null) {
            p.stop();
        }
    }

    private static void requireStopped(ServiceProcess p, String what) {
        if (p != null && p.isAlive()) {
            throw new IllegalStateException(what + " is running");
        }
    }

    private Path log(String service) {
        return dir.resolve("logs").resolve(service.replace(' ', '-') + ".log");
    }

    private Path writeConf(String name, List<String> lines) throws IOException {
        Path conf = dir.resolve("conf").resolve(name);
        Files.createDirectories(conf.getParent());
        Files.write(conf, lines, StandardCharsets.UTF_8);
        return conf;
    }
}
