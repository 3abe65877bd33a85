package io.shardvault.it.netns;

import io.shardvault.coordinator.testing.ClusterKeyFile;
import io.shardvault.it.process.ServiceProcess;
import io.shardvault.it.release.SampleConfs;
import io.shardvault.it.release.UnpackedRelease;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example cluster of docs/DEPLOYMENT.md on {@link NetnsNetwork} hosts, run from the unpacked release tarball:
 * coordinators c1-c3 (192.0.2.11-13, the 3 catalog peers), pod hosts p1-p5 (192.0.2.21-25, 4 pods each: the
 * 16+4 vault of the sample map), stash hosts s1-s2 (192.0.2.31-32). Each host's confs are the release's samples
 * with their paths moved under the test directory and, where hosts of one role differ, the sample's address
 * replaced by the host's own and the per-instance keys appended. Each service runs as its systemd unit runs it
 * ({@code bin/shardvault run ROLE $SHARDVAULT_ARGS}) under {@code ip netns exec HOST}. Not thread-safe.
 */
final class NetnsCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetnsCluster.class);
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    static final List<String> COORDINATORS = List.of("c1", "c2", "c3");
    static final int POD_HOSTS = 5;
    static final int PODS_PER_HOST = 4;
    static final int STASH_HOSTS = 2;
    /** Each coordinator's remote JMX: loopback of its own host, so the admin CLI runs in its namespace. */
    static final String JMX = "127.0.0.1:9010";
    static final int S3_PORT = 9000;

    private final NetnsNetwork network;
    private final UnpackedRelease release;
    private final SampleConfs confs;
    private final Path passwordFile;
    /** Every service in start order: stash servers, pod processes, coordinators. */
    private final List<Service> services = new ArrayList<>();

    /** One service of the cluster: its host, the command line of its unit, and the line that says it is ready. */
    final class Service {
        final String name;
        final String host;
        private final String readyLine;
        private final String[] args;
        private ServiceProcess process;

        private Service(String name, String host, String readyLine, String... args) {
            this.name = name;
            this.host = host;
            this.readyLine = readyLine;
            this.args = args;
        }

        void start() throws IOException {
            process = onHost(host).start(name, UnpackedRelease.TWO_CORE_JVM, args);
        }

        void awaitReady() throws IOException, InterruptedException, TimeoutException {
            process.awaitLine(readyLine, START_TIMEOUT);
        }

        /** SIGTERM as systemd stops it; its status must be the JVM's clean exit on it, 143. */
        void stop() throws IOException, InterruptedException, TimeoutException {
            process.stop();
            int status = process.awaitExit(Duration.ofSeconds(1));
            if (status != 143) {
                throw new IllegalStateException(name + " exited " + status + " on SIGTERM; " + process.tail());
            }
        }

        /** SIGKILL: a crash, no orderly stop (a pod's unflushed shards stay unsynced, its purges undelivered). */
        void kill() {
            process.kill();
        }

        ServiceProcess process() {
            return process;
        }

        @Override
        public String toString() {
            return name + "@" + host;
        }
    }

    private NetnsCluster(NetnsNetwork network, UnpackedRelease release, SampleConfs confs, Path passwordFile) {
        this.network = network;
        this.release = release;
        this.confs = confs;
        this.passwordFile = passwordFile;
    }

    /**
     * Adds every host to {@code network}, writes the certificates, secrets and confs, starts every service and
     * registers the map with {@code bin/shardvault init --map} in c1's namespace; returns once every coordinator
     * serves S3.
     */
    static NetnsCluster start(NetnsNetwork network, UnpackedRelease release, Path dir) throws Exception {
        for (int c = 0; c < COORDINATORS.size(); c++) {
            network.addHost(COORDINATORS.get(c), "192.0.2.1" + (c + 1));
        }
        for (int h = 1; h <= POD_HOSTS; h++) {
            network.addHost("p" + h, "192.0.2.2" + h);
        }
        for (int s = 1; s <= STASH_HOSTS; s++) {
            network.addHost("s" + s, "192.0.2.3" + s);
        }
        SampleConfs confs = new SampleConfs(dir);
        // Each host's certificate names the one address the network gave it.
        Map<String, String> sans = new LinkedHashMap<>();
        for (int c = 1; c <= COORDINATORS.size(); c++) {
            sans.put("coordinator-" + c, network.address(COORDINATORS.get(c - 1)));
        }
        for (int h = 1; h <= POD_HOSTS; h++) {
            sans.put("pod-host-" + h, network.address("p" + h));
        }
        for (int s = 1; s <= STASH_HOSTS; s++) {
            sans.put("stash-" + s, network.address("s" + s));
        }
        sans.put("s3", String.join(",", COORDINATORS.stream().map(network::address).toList()));
        release.certificates(confs.etc().resolve("tls"), sans);
        ClusterKeyFile.in(confs.etc());
        confs.writeSecret("admin.token", UUID.randomUUID().toString());
        Path passwordFile = confs.writeSecret("jmx.password", "admin netns-it-" + UUID.randomUUID());

        NetnsCluster cluster = new NetnsCluster(network, release, confs, passwordFile);
        try {
            cluster.startAll();
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startAll() throws Exception {
        String peers = catalogPeers();
        Path map = confs.write(release.sampleConf("cluster-map.conf"), "cluster-map.conf", UnaryOperator.identity(),
                "catalog.peers = \"" + peers + "\"");
        for (int s = 1; s <= STASH_HOSTS; s++) {
            String host = "s" + s;
            String address = network.address(host);
            Path conf = confs.write(release.sampleConf("stash.conf"), "stash-" + s + ".conf", hostAddress("192.0.2.31", address),
                    "stash.dataDir = \"" + confs.var().resolve(host).resolve("stash") + "\"",
                    "stash.rocksdb.writeBufferBytes = 8MiB",
                    "tls.certificate = \"" + tls("stash-" + s + ".crt") + "\"",
                    "tls.key = \"" + tls("stash-" + s + ".key") + "\"");
            services.add(new Service("stash-" + s, host, "stash listening on", "run", "stash", "--config",
                    conf.toString(), "--bind", address + ":7400"));
        }
        for (int h = 1; h <= POD_HOSTS; h++) {
            String host = "p" + h;
            String address = network.address(host);
            List<String> args = new ArrayList<>(List.of("run", "pod"));
            for (int i = 0; i < PODS_PER_HOST; i++) {
                Path conf = confs.write(release.sampleConf("pod.conf"), "pod-" + h + "-" + i + ".conf",
                        hostAddress("192.0.2.21", address),
                        "pod.name = \"pod-" + h + "-" + i + "\"",
                        "pod.bind = \"" + address + ":750" + i + "\"",
                        "pod.stateDir = \"" + confs.var().resolve(host).resolve("pod-" + i) + "\"",
                        "pod.tomes = \"" + confs.srv().resolve(host).resolve("disk" + i) + "\"",
                        "tls.certificate = \"" + tls("pod-host-" + h + ".crt") + "\"",
                        "tls.key = \"" + tls("pod-host-" + h + ".key") + "\"");
                args.addAll(List.of("--config", conf.toString()));
            }
            services.add(new Service("pods-" + h, host, "pod pod-" + h + "-" + (PODS_PER_HOST - 1) + " listening",
                    args.toArray(String[]::new)));
        }
        for (int c = 1; c <= COORDINATORS.size(); c++) {
            String host = COORDINATORS.get(c - 1);
            Path conf = confs.write(release.sampleConf("coordinator.conf"), "coordinator-" + c + ".conf",
                    hostAddress("192.0.2.11", network.address(host)),
                    "catalog.peers = \"" + peers + "\"",
                    "catalog.peerId = \"" + host + "\"",
                    "catalog.dataDir = \"" + confs.var().resolve(host).resolve("catalog") + "\"",
                    "audit.file = \"" + confs.var().resolve(host).resolve("audit.json") + "\"",
                    // Writes go on with a pod host (4 of 20 pods) cut off: docs/DEPLOYMENT.md's choice for that,
                    // against the default n-1 that refuses them until the host is back.
                    "data.write.quorum = 16",
                    "tls.certificate = \"" + tls("coordinator-" + c + ".crt") + "\"",
                    "tls.key = \"" + tls("coordinator-" + c + ".key") + "\"");
            services.add(new Service("coordinator-" + c, host, "coordinator S3 endpoint ready on", "run",
                    "coordinator", "--config", conf.toString()));
        }
        // Each role's hosts at once, as a fleet comes up; stash servers before pods (a pod recovers from them).
        startAndAwait(role("stash-"));
        startAndAwait(role("pods-"));
        for (Service c : role("coordinator-")) {
            c.start();
        }
        // Their conf names no cluster map: they wait for the catalog's, registered once from c1's host.
        Service c1 = coordinator("c1");
        String init = onHost("c1").initMap(map, JMX, passwordFile, c1.process(),
                START_TIMEOUT);
        LOG.info("init --map: {}", init.trim());
        for (String c : COORDINATORS) {
            coordinator(c).awaitReady();
        }
    }

    /** The release with its commands run on {@code host}. */
    private UnpackedRelease onHost(String host) {
        return release.launchedBy(network.onHost(host, List.of()));
    }

    private List<Service> role(String namePrefix) {
        return services.stream().filter(s -> s.name.startsWith(namePrefix)).toList();
    }

    private static void startAndAwait(List<Service> role) throws IOException, InterruptedException, TimeoutException {
        for (Service s : role) {
            s.start();
        }
        for (Service s : role) {
            s.awaitReady();
        }
    }

    /** The sample's host address {@code sample} replaced by {@code address}, wherever it is followed by a port or quote. */
    private static UnaryOperator<String> hostAddress(String sample, String address) {
        return text -> text.replaceAll(Pattern.quote(sample) + "(?=[:\"])", address);
    }

    private Path tls(String file) {
        return confs.etc().resolve("tls").resolve(file);
    }

    private String catalogPeers() {
        List<String> peers = new ArrayList<>();
        for (String c : COORDINATORS) {
            peers.add(c + "=" + network.address(c) + ":7300");
        }
        return String.join(",", peers);
    }

    SampleConfs confs() {
        return confs;
    }

    NetnsNetwork network() {
        return network;
    }

    List<Service> services() {
        return services;
    }

    /** The service named {@code name} (e.g. {@code pods-5}, the pod process of host p5). */
    Service service(String name) {
        return services.stream().filter(s -> s.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service " + name));
    }

    Service coordinator(String host) {
        return services.stream().filter(s -> s.host.equals(host)).findFirst().orElseThrow();
    }

    /** Every coordinator's S3 endpoint. */
    List<String> endpoints() {
        return COORDINATORS.stream().map(c -> "https://" + network.address(c) + ":" + S3_PORT).toList();
    }

    /** The admin CLI ({@code bin/shardvault admin ARGS}) against the coordinator of {@code host}, in its namespace. */
    String admin(String host, String... args) throws IOException, InterruptedException, TimeoutException {
        List<String> all = new ArrayList<>(List.of("admin"));
        all.addAll(List.of(args));
        all.addAll(List.of("--jmx", JMX, "--password-file", passwordFile.toString()));
        return onHost(host).script(all.toArray(String[]::new));
    }

    UnpackedRelease.AccessKey createKey(String account) throws IOException, InterruptedException, TimeoutException {
        return onHost("c1").createKey(account, JMX, passwordFile);
    }

    /**
     * The files in the catalog's repair queue (written with shards missing, say) as {@code admin repair status}
     * on {@code host}'s coordinator shows them, or -1 while its gauge is not yet known.
     */
    long degradedFiles(String host) throws IOException, InterruptedException, TimeoutException {
        for (String line : admin(host, "repair", "status").split("\n")) {
            String[] cells = line.trim().split(":\\s+");
            if (cells[0].equals("degraded files")) {
                return cells[1].equals("?") ? -1 : Long.parseLong(cells[1]);
            }
        }
        throw new IllegalStateException("admin repair status shows no degraded files");
    }

    /**
     * The catalog leader's peer id as {@code admin catalog peers} shows it, asked of each coordinator not in
     * {@code skip} in turn until one names a leader other than a skipped one, for at most {@code timeout}.
     */
    String catalogLeader(Duration timeout, String... skip) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> skipped = List.of(skip);
        String last = "";
        while (System.nanoTime() < deadline) {
            for (String c : COORDINATORS) {
                if (skipped.contains(c)) {
                    continue;
                }
                try {
                    for (String line : admin(c, "catalog", "peers").split("\n")) {
                        String[] cells = line.trim().split("\\s+");
                        if (cells.length > 2 && cells[2].equals("LEADER") && !skipped.contains(cells[0])) {
                            return cells[0];
                        }
                    }
                } catch (IOException | IllegalStateException | TimeoutException e) {
                    last = c + ": " + e.getMessage();
                }
            }
            Thread.sleep(500);
        }
        throw new TimeoutException("no catalog leader outside " + skipped + " within " + timeout + "; last: " + last);
    }

    /** Stops every service still running, coordinators first (the reverse of the start); leaves the logs. */
    @Override
    public void close() {
        for (int i = services.size() - 1; i >= 0; i--) {
            ServiceProcess p = services.get(i).process;
            if (p != null) {
                p.stop();
            }
        }
    }
}
