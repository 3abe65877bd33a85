package io.shardvault.it.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.coordinator.testing.ClusterKeyFile;
import io.shardvault.it.process.ProcessCluster;
import io.shardvault.it.process.ServiceProcess;
import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The release tarball as an operator gets it (issue #22 item 1): unpacked into a directory outside the checkout,
 * where no ./mvnw and no source can be found, it reports its version, its JARs carry only the RocksDB library
 * they load, and a one-host cluster runs from it: the certificates made with its {@code bin/shardvault certs},
 * each service started as its systemd unit starts it ({@code bin/shardvault run ROLE --config ...}) from the
 * sample confs of {@code conf/} moved onto loopback ({@link LoopbackConfs}), the cluster map registered with its
 * {@code bin/shardvault init --map} (the coordinator's conf names none: it waits for it), an access key made with its
 * {@code bin/shardvault admin}, then an object put and read back over HTTPS with the AWS SDK v2, and every
 * service stopped by SIGTERM as systemd stops it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ReleaseTarballIT {
    private static final Logger LOG = LoggerFactory.getLogger(ReleaseTarballIT.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private Path dir;
    private final List<ServiceProcess> services = new ArrayList<>();

    @BeforeEach
    void makeADirectoryOutsideTheCheckout() throws IOException {
        dir = Files.createTempDirectory("shardvault-release-it-");
        Path root = Path.of(System.getProperty(ProcessCluster.ROOT_PROPERTY)).toRealPath();
        assertThat(dir.toRealPath().startsWith(root)).as("%s is inside the checkout %s", dir, root).isFalse();
    }

    /** Stops what is still running, the coordinator first (the reverse of the start), and leaves the logs. */
    @AfterEach
    void stopEverything() throws IOException {
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).stop();
        }
        if (Files.exists(dir)) {
            LOG.info("release test directory kept (logs under test-logs): {}", dir);
        }
    }

    @Test
    void theTarballRunsAClusterWithoutACheckout() throws Exception {
        long began = System.nanoTime();
        UnpackedRelease release = UnpackedRelease.unpack(dir);
        String version = "shardvault " + release.version();

        // --version: the script and every JAR, one source.
        assertThat(release.script("--version").lines()).contains(version);
        for (String service : List.of("coordinator", "pod", "stash")) {
            assertThat(release.javaJar(service, "--version").lines()).as(service).contains(version);
        }
        assertSlimJars(release);
        for (String file : List.of("conf/coordinator.conf", "systemd/shardvault-pod.service", "docs/DEPLOYMENT.md",
                "ops/grafana/shardvault-dashboard.json", "ops/prometheus/shardvault-rules.yml")) {
            assertThat(release.home().resolve(file)).as("in the release").isRegularFile();
        }

        // The operator's steps of docs/DEPLOYMENT.md, on one host.
        LoopbackConfs confs = new LoopbackConfs(dir);
        SampleConfs files = confs.files();
        Path tls = files.etc().resolve("tls");
        Map<String, String> sans = new LinkedHashMap<>();
        for (String name : List.of("coordinator-1", "pod-host-1", "stash-1", "s3")) {
            sans.put(name, "127.0.0.1,localhost");
        }
        release.certificates(tls, sans);
        ClusterKeyFile.in(files.etc());
        String adminToken = UUID.randomUUID().toString();
        files.writeSecret("admin.token", adminToken);
        String jmxPassword = "release-it-" + UUID.randomUUID();
        Path passwordFile = files.writeSecret("jmx.password", "admin " + jmxPassword);

        Path clusterMap = confs.write(release.sampleConf("cluster-map.conf"), "cluster-map.conf");
        Path coordinatorConf = confs.write(release.sampleConf("coordinator.conf"), "coordinator.conf");
        List<String> stashServers = SampleConfs.listValue(clusterMap, "coordinator.stash.servers");
        List<String> pods = SampleConfs.listValue(clusterMap, "coordinator.vault.pods");

        for (int s = 0; s < stashServers.size(); s++) {
            // One host: each its own data directory and admin port; memtables small for a test machine.
            Path conf = confs.write(release.sampleConf("stash.conf"), "stash-" + s + ".conf",
                    "stash.dataDir = \"" + files.var().resolve("stash-" + s) + "\"",
                    "admin.bind = \"127.0.0.1:0\"", "stash.rocksdb.writeBufferBytes = 8MiB");
            start(release.start("stash-" + s, UnpackedRelease.TWO_CORE_JVM, "run", "stash", "--config", conf.toString(), "--bind",
                    stashServers.get(s)), "stash listening on");
        }
        List<String> podArgs = new ArrayList<>(List.of("run", "pod"));
        for (int i = 0; i < pods.size(); i++) {
            Path conf = confs.write(release.sampleConf("pod.conf"), "pod-" + i + ".conf",
                    "pod.name = \"pod-" + i + "\"", "pod.bind = \"" + pods.get(i) + "\"",
                    "pod.stateDir = \"" + files.var().resolve("pod-" + i) + "\"",
                    "pod.tomes = \"" + files.srv().resolve("disk" + i) + "\"");
            podArgs.addAll(List.of("--config", conf.toString()));
        }
        start(release.start("pods", UnpackedRelease.TWO_CORE_JVM, podArgs.toArray(String[]::new)), "pod pod-" + (pods.size() - 1) + " listening");
        ServiceProcess coordinator = start(release.start("coordinator", UnpackedRelease.TWO_CORE_JVM, "run", "coordinator", "--config",
                coordinatorConf.toString()), "admin listening on");
        // Its conf names no cluster map: it waits for the catalog's, which bin/shardvault init registers once.
        String jmx = confs.address("127.0.0.1:9010");
        String init = release.initMap(clusterMap, jmx, passwordFile, coordinator, START_TIMEOUT);
        assertThat(init).startsWith("registered the cluster map in the catalog")
                .contains("catalog peers as in the map");
        coordinator.awaitLine("coordinator S3 endpoint ready on", START_TIMEOUT);
        // bin/shardvault exec'd the JVM: what systemd starts is the service itself, and gets its signals.
        assertThat(ProcessHandle.of(coordinator.pid()).flatMap(h -> h.info().command())).hasValueSatisfying(
                command -> assertThat(command).endsWith("/java"));

        UnpackedRelease.AccessKey key = release.createKey("admin", jmx, passwordFile);
        String keyId = key.id();
        String secret = key.secret();

        byte[] body = new byte[3 << 20];
        new Random(22).nextBytes(body);
        URI endpoint = URI.create("https://127.0.0.1:" + confs.s3Port());
        try (S3Client s3 = S3Cluster.syncClient(endpoint, keyId, secret, Duration.ofSeconds(60))) {
            s3.createBucket(b -> b.bucket("release"));
            s3.putObject(p -> p.bucket("release").key("backup.vbk"), RequestBody.fromBytes(body));
            assertThat(s3.getObjectAsBytes(g -> g.bucket("release").key("backup.vbk")).asByteArray()).isEqualTo(body);
        }

        // No secret on a command line (issue #21): what ps shows of every process, these services' included.
        List<String> commandLines = ProcessHandle.allProcesses().flatMap(h -> h.info().commandLine().stream()).toList();
        assertThat(commandLines).anyMatch(c -> c.contains("shardvault-coordinator"));
        for (String secretValue : List.of(secret, jmxPassword, adminToken)) {
            assertThat(commandLines).as("command lines").noneMatch(c -> c.contains(secretValue));
        }

        // As systemd stops the units: SIGTERM, the coordinator first; 143 is the JVM's clean exit on it.
        for (int i = services.size() - 1; i >= 0; i--) {
            ServiceProcess p = services.get(i);
            p.stop();
            assertThat(p.awaitExit(Duration.ofSeconds(1))).as("%s's exit status; %s", p.name(), p.tail()).isEqualTo(143);
        }
        LOG.info("release tarball test: {} s", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
        deleteTree(dir);
    }

    private ServiceProcess start(ServiceProcess p, String readyLine) throws Exception {
        services.add(p);
        p.awaitLine(readyLine, START_TIMEOUT);
        return p;
    }

    /**
     * The pod's JAR has no RocksDB; the coordinator's and the stash's only its Linux x86-64 (glibc) library; no JAR
     * any other platform's Netty library.
     */
    private static void assertSlimJars(UnpackedRelease release) throws IOException {
        assertThat(release.libFiles()).containsExactlyInAnyOrder(release.jar("coordinator"), release.jar("pod"),
                release.jar("stash"));
        for (String service : List.of("coordinator", "pod", "stash")) {
            List<String> rocksdb = new ArrayList<>();
            List<String> netty = new ArrayList<>();
            try (ZipFile jar = new ZipFile(release.jar(service).toFile())) {
                jar.stream().map(e -> e.getName())
                        .filter(n -> n.startsWith("librocksdbjni") || n.equals("org/rocksdb/RocksDB.class"))
                        .forEach(rocksdb::add);
                jar.stream().map(e -> e.getName()).filter(n -> n.startsWith("META-INF/native/") && !n.endsWith("/"))
                        .forEach(netty::add);
            }
            LOG.info("{}: {} bytes, RocksDB entries {}, Netty's {}", service, Files.size(release.jar(service)),
                    rocksdb, netty);
            assertThat(netty).as(service).isNotEmpty().allSatisfy(n -> assertThat(n).endsWith("_x86_64.so"));
            if (service.equals("pod")) {
                assertThat(rocksdb).as(service).isEmpty();
            } else {
                assertThat(rocksdb).as(service).containsExactlyInAnyOrder("librocksdbjni-linux64.so",
                        "org/rocksdb/RocksDB.class");
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
