package io.shardvault.it.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.testing.ChildJvm;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.admin.AccessKeysMXBean;
import io.shardvault.coordinator.admin.AccountView;
import io.shardvault.coordinator.admin.AccountsMXBean;
import io.shardvault.coordinator.admin.CatalogMXBean;
import io.shardvault.coordinator.admin.ClusterMXBean;
import io.shardvault.coordinator.admin.CoordinatorAdmin;
import io.shardvault.coordinator.admin.NewAccessKeyView;
import io.shardvault.coordinator.admin.PodMXBean;
import io.shardvault.coordinator.admin.cli.AdminCli;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.it.s3.S3Cluster;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodPage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A real cluster (20 pods, 2 stash servers, a coordinator with a 1-peer catalog) with remote JMX on
 * 127.0.0.1 behind a password: a JMX client reads the console's MBeans and acts through them, and
 * the effects show where they should (on the pods' disks, at the S3 endpoint); the admin CLI runs
 * against it in-process and as a child JVM.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AdminJmxIT {
    private static final Logger LOG = LoggerFactory.getLogger(AdminJmxIT.class);
    private static final String USER = "ops";
    private static final String PASSWORD = "jmx-secret-" + 42;

    private Path dir;

    private MiniCluster nodes;
    private Coordinator coordinator;
    private int jmxPort;
    private JMXConnector jmx;
    private MBeanServerConnection mbeans;
    private RpcClient rpc;
    private PodClient pods;
    private final long seed = System.nanoTime();
    private final SplittableRandom random = new SplittableRandom(seed);

    @BeforeAll
    void startCluster(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        LOG.info("seed {}", seed);
        // Scrub passes every 2 s (a day by default), so a damaged shard is found while the test waits.
        nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.scrub.interval", "2s")));
        jmxPort = FreePorts.loopback();
        Map<String, Object> s = S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0);
        s.put("coordinator.accessKey", S3Cluster.ACCESS_KEY);
        s.put("coordinator.secretKey", S3Cluster.SECRET_KEY);
        s.put("repair.scrub.interval", "10m"); // findings stay with the pods: the damage is still there each pass
        s.put("jmx.remote.enabled", true);
        s.put("jmx.remote.bind", "127.0.0.1:" + jmxPort);
        s.put("jmx.remote.user", USER);
        s.put("jmx.remote.password", PASSWORD);
        coordinator = Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
        jmx = JMXConnectorFactory.connect(url(), Map.of(JMXConnector.CREDENTIALS, new String[] {USER, PASSWORD}));
        mbeans = jmx.getMBeanServerConnection();
        rpc = RpcClient.create(nodes.transport(), RpcClientConfig.defaults());
        pods = new PodClient(rpc);
    }

    @AfterAll
    void stopCluster() throws IOException {
        if (jmx != null) {
            jmx.close();
        }
        if (rpc != null) {
            rpc.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    private JMXServiceURL url() throws IOException {
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
    }

    private S3Client s3(String key, String secret) {
        return S3Cluster.syncClient(URI.create("http://127.0.0.1:" + coordinator.s3Address().getPort()), key, secret,
                Duration.ofSeconds(60));
    }

    /** The shard ids of files of the test vault that pod {@code shard} holds. */
    private Set<ShardId> shardsOn(int shard) {
        Set<ShardId> ids = new HashSet<>();
        Optional<ShardId> after = Optional.empty();
        for (int page = 0; page < 1000; page++) {
            PodPage p = pods.list(nodes.podAddress(shard), after, 1000).join();
            ids.addAll(p.ids());
            if (p.next().isEmpty()) {
                return ids;
            }
            after = p.next();
        }
        throw new AssertionError("pod " + shard + " listing did not end");
    }

    private Set<Long> fileIds(Set<ShardId> ids) {
        Set<Long> out = new HashSet<>();
        ids.forEach(id -> out.add(id.fileId()));
        return out;
    }

    private byte[] body(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    @Test
    void readsTheClusterCatalogAndPodsWithReadableDescriptions() throws Exception {
        ClusterMXBean cluster = JMX.newMXBeanProxy(mbeans, CoordinatorAdmin.clusterName(), ClusterMXBean.class);
        CompositeData[] podViews = (CompositeData[]) mbeans.getAttribute(CoordinatorAdmin.clusterName(), "Pods");
        assertThat(podViews).hasSize(20);
        for (CompositeData p : podViews) {
            assertThat((Boolean) p.get("reachable")).as("pod %s reachable", p.get("shardIndex")).isTrue();
            assertThat((Long) p.get("usableBytes")).isPositive();
        }
        CompositeData[] vaults = (CompositeData[]) mbeans.getAttribute(CoordinatorAdmin.clusterName(), "Vaults");
        assertThat(vaults).hasSize(1);
        assertThat(vaults[0].get("layout")).isEqualTo("16+4");
        assertThat(vaults[0].get("writable")).isEqualTo(true);
        assertThat(cluster.getStashServers()).hasSize(2).allMatch(s -> s.isReachable());

        CatalogMXBean catalog = JMX.newMXBeanProxy(mbeans, new ObjectName("io.shardvault:type=Catalog,name=catalog"),
                CatalogMXBean.class);
        assertThat(catalog.getRole()).isEqualTo("LEADER");
        assertThat(catalog.getLeaderId()).isEqualTo("c1");
        assertThat(catalog.getTerm()).isPositive();
        long applied = catalog.getAppliedIndex();
        assertThat(catalog.takeSnapshot()).isGreaterThanOrEqualTo(applied);
        assertThatThrownBy(() -> catalog.transferLeadership("nobody")).hasMessageContaining("no catalog peer 'nobody'");

        var info = mbeans.getMBeanInfo(CoordinatorAdmin.podName(MiniCluster.VAULT_ID, 0));
        assertThat(info.getDescription()).contains("storage pod");
        assertThat(info.getOperations()).anySatisfy(op -> {
            assertThat(op.getName()).isEqualTo("drain");
            assertThat(op.getDescription()).contains("no new shards");
        });
        var slots = (CompositeData[]) mbeans.getAttribute(new ObjectName("io.shardvault:type=Stash,name=stash"),
                "Slots");
        assertThat(slots).hasSize(20).allMatch(s -> (Boolean) s.get("complete"));
    }

    /**
     * Judged by the files written while the pod was drained, not by the pod's whole listing: repair may
     * write a shard of an older file to it meanwhile (a file an earlier test wrote degraded, with this
     * pod late on a loaded machine), and that is repair's job, not a new shard.
     */
    @Test
    void aDrainedPodGetsNoNewShardsUntilItIsUpAgain() throws Exception {
        int drained = 3;
        int witness = 4;
        PodMXBean pod = JMX.newMXBeanProxy(mbeans, CoordinatorAdmin.podName(MiniCluster.VAULT_ID, drained),
                PodMXBean.class);
        try (S3Client s3 = s3(S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY)) {
            s3.createBucket(b -> b.bucket("drain"));
            Set<Long> witnessBefore = fileIds(shardsOn(witness));
            assertThat(pod.drain()).isEqualTo("DRAINING");
            assertThat(pod.getState()).isEqualTo("DRAINING");
            // Small (stash mode) and large (durable) objects alike.
            int[] sizes = {1, 4096, 300_000, 3 << 20};
            for (int i = 0; i < sizes.length; i++) {
                String key = "k" + i;
                s3.putObject(b -> b.bucket("drain").key(key), RequestBody.fromBytes(body(sizes[key.charAt(1) - '0'])));
            }
            Set<Long> newFiles = fileIds(shardsOn(witness));
            newFiles.removeAll(witnessBefore);
            assertThat(newFiles).as("files written while pod %d was drained", drained).hasSize(sizes.length);
            assertThat(fileIds(shardsOn(drained))).as("files with a shard on the drained pod")
                    .doesNotContainAnyElementsOf(newFiles);
            for (int i = 0; i < sizes.length; i++) {
                int k = i;
                byte[] back = s3.getObjectAsBytes(b -> b.bucket("drain").key("k" + k)).asByteArray();
                assertThat(back).hasSize(sizes[i]);
            }

            assertThat(pod.markUp()).isEqualTo("UP");
            Set<Long> witnessUp = fileIds(shardsOn(witness));
            s3.putObject(b -> b.bucket("drain").key("after"), RequestBody.fromBytes(body(2048)));
            Set<Long> written = fileIds(shardsOn(witness));
            written.removeAll(witnessUp);
            assertThat(written).as("files written once pod %d is up again", drained).hasSize(1);
            // Written degraded (this pod late on a loaded machine), the file gains its shard by repair
            // (repair.interval 10 s, after the leader's takeover delay of 30 s).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            while (!fileIds(shardsOn(drained)).containsAll(written) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(fileIds(shardsOn(drained))).as("files with a shard on the pod once it is up again")
                    .containsAll(written);

            assertThat(pod.markDown()).isEqualTo("DOWN");
            CompositeData[] vaults = (CompositeData[]) mbeans.getAttribute(CoordinatorAdmin.clusterName(), "Vaults");
            assertThat(vaults[0].get("podsDown")).isEqualTo(1);
        } finally {
            // A failure above must not leave the pod drained for the tests after this one.
            assertThat(pod.markUp()).isEqualTo("UP");
        }
    }

    @Test
    void accessKeysCreatedOverJmxAuthenticateUntilDisabled() throws Exception {
        AccessKeysMXBean keys = JMX.newMXBeanProxy(mbeans,
                new ObjectName("io.shardvault:type=AccessKeys,name=accessKeys"), AccessKeysMXBean.class);
        AccountsMXBean accounts = JMX.newMXBeanProxy(mbeans,
                new ObjectName("io.shardvault:type=Accounts,name=accounts"), AccountsMXBean.class);
        assertThatThrownBy(() -> keys.create("backup-team")).hasMessageContaining("no account named backup-team");
        AccountView team = accounts.create("backup-team");
        assertThat(team.getId()).isNotEqualTo("backup-team");
        NewAccessKeyView key = keys.create("backup-team");
        assertThat(key.getSecretKey()).isNotBlank();
        assertThat(key.getAccountId()).isEqualTo(team.getId());
        assertThat(key.getAccount()).isEqualTo("backup-team");
        assertThat(keys.list()).anySatisfy(k -> {
            assertThat(k.getAccessKeyId()).isEqualTo(key.getAccessKeyId());
            assertThat(k.isEnabled()).isTrue();
        });
        try (S3Client s3 = s3(key.getAccessKeyId(), key.getSecretKey())) {
            s3.createBucket(b -> b.bucket("keyed"));
            assertThat(s3.listBuckets().buckets()).anyMatch(b -> b.name().equals("keyed"));
            assertThat(accounts.list()).filteredOn(a -> a.getId().equals(team.getId())).singleElement()
                    .satisfies(a -> {
                        assertThat(a.getKeys()).isEqualTo(1);
                        assertThat(a.getBuckets()).isEqualTo(1);
                    });
            assertThat(keys.disable(key.getAccessKeyId()).isEnabled()).isFalse();
            assertThatThrownBy(s3::listBuckets).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.statusCode()).isEqualTo(403));
        }
        assertThatThrownBy(() -> keys.disable("AKIDNOSUCHKEY")).hasMessageContaining("AKIDNOSUCHKEY");
    }

    @Test
    void wrongOrMissingCredentialsAreRefused() {
        assertThatThrownBy(() -> JMXConnectorFactory.connect(url(),
                Map.of(JMXConnector.CREDENTIALS, new String[] {USER, "wrong"}))).isInstanceOf(SecurityException.class);
        assertThatThrownBy(() -> JMXConnectorFactory.connect(url(), Map.of()))
                .isInstanceOf(SecurityException.class);
    }

    private AdminCliRun cli(String... args) {
        return AdminCliRun.execute(args);
    }

    private String[] withCredentials(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--jmx", "127.0.0.1:" + jmxPort, "--password-file", writePasswordFile().toString()));
        return all.toArray(String[]::new);
    }

    @Test
    void cliStatusShowsTheClusterAndFailsClearlyWhenNothingListens() throws Exception {
        AdminCliRun status = cli(withCredentials("status"));
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).startsWith("CLUSTER ").contains("CATALOG", "LEADER", "VAULTS", "16+4", "PODS",
                "FAILED TOMES", "STASH SERVERS",
                nodes.podAddress(19).getPort() + "");
        assertThat(status.out().lines().filter(l -> l.matches("^1\\s+\\d+\\s+127\\.0\\.0\\.1:.*"))).hasSize(20);

        AdminCliRun json = cli(withCredentials("status", "--json"));
        assertThat(json.exit()).isZero();
        assertThat(json.out()).startsWith("{\"verdict\":\"").contains("\"catalog\":{", "\"pods\":[{",
                "\"role\":\"LEADER\"");

        AdminCliRun noAccount = cli(withCredentials("keys", "create", "--account", "cli"));
        assertThat(noAccount.exit()).isNotZero();
        assertThat(noAccount.err()).contains("no account named cli", "accounts create cli");
        AdminCliRun account = cli(withCredentials("accounts", "create", "cli"));
        assertThat(account.exit()).as(account.err()).isZero();
        assertThat(account.out()).startsWith("account cli created, id SVA");
        AdminCliRun keys = cli(withCredentials("keys", "create", "--account", "cli"));
        assertThat(keys.exit()).as(keys.err()).isZero();
        assertThat(keys.out()).contains("access key id:", "secret key:", "bypass governance: no");
        AdminCliRun scoped = cli(withCredentials("keys", "create", "--account", "cli", "--bucket", "repo", "--read-only"));
        assertThat(scoped.exit()).as(scoped.err()).isZero();
        assertThat(scoped.out()).contains("account:           cli (SVA", "bucket:            repo", "read-only:         yes");
        AdminCliRun bypassing = cli(withCredentials("keys", "create", "--account", "cli", "--bypass-governance"));
        assertThat(bypassing.exit()).as(bypassing.err()).isZero();
        assertThat(bypassing.out()).contains("bypass governance: yes");
        String bypassingId = bypassing.out().lines().filter(l -> l.startsWith("access key id:"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElseThrow();
        AdminCliRun listed = cli(withCredentials("keys", "list"));
        assertThat(listed.exit()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("BYPASS GOVERNANCE");
        assertThat(listed.out().lines().filter(l -> l.startsWith(bypassingId))).singleElement()
                .satisfies(l -> assertThat(l).matches(".*\\bcli\\s+yes\\s+\\*\\s+no\\s+yes\\b.*"));
        AdminCliRun accountList = cli(withCredentials("accounts", "list"));
        assertThat(accountList.exit()).as(accountList.err()).isZero();
        assertThat(accountList.out()).contains("NAME", "ID", "KEYS", "BUCKETS");
        assertThat(accountList.out().lines().filter(l -> l.startsWith("cli "))).singleElement()
                .satisfies(l -> assertThat(l).matches("cli\\s+SVA\\w+\\s+\\S+\\s+3\\s+0\\s+no"));

        AdminCliRun repair = cli(withCredentials("repair", "status", "--limit", "5"));
        assertThat(repair.exit()).as(repair.err()).isZero();
        assertThat(repair.out()).contains("REPAIR", "repairing here:     true", "degraded files:", "QUEUED (first 5)",
                "REASON");
        AdminCliRun repairJson = cli(withCredentials("repair", "status", "--json"));
        assertThat(repairJson.exit()).as(repairJson.err()).isZero();
        assertThat(repairJson.out()).startsWith("{\"repairingHere\":true,\"degradedFiles\":").contains("\"queued\":[");
        AdminCliRun collect = cli(withCredentials("collect", "status"));
        assertThat(collect.exit()).as(collect.err()).isZero();
        assertThat(collect.out()).contains("ORPHAN COLLECTION", "collecting here:    true", "files collected:");
        AdminCliRun collectJson = cli(withCredentials("collect", "status", "--json"));
        assertThat(collectJson.exit()).as(collectJson.err()).isZero();
        assertThat(collectJson.out()).startsWith("{\"collectingHere\":true,\"orphansFound\":");

        AdminCliRun badPod = cli(withCredentials("pod", "drain", "77"));
        assertThat(badPod.exit()).isEqualTo(1);
        assertThat(badPod.err()).contains("no pod 77");

        Path wrong = dir.resolve("wrong.password");
        java.nio.file.Files.writeString(wrong, USER + " nope\n");
        AdminCliRun wrongPassword = cli("status", "--jmx", "127.0.0.1:" + jmxPort, "--password-file", wrong.toString());
        assertThat(wrongPassword.exit()).isEqualTo(1);
        assertThat(wrongPassword.err()).contains("refused the credentials");

        AdminCliRun usage = cli("pod", "drain");
        assertThat(usage.exit()).isEqualTo(2);

        int dead = FreePorts.loopback();
        AdminCliRun unreachable = cli("status", "--jmx", "127.0.0.1:" + dead, "--password-file",
                writePasswordFile().toString());
        // A password on the command line would be visible in ps: there is no such option.
        AdminCliRun onTheCommandLine = cli("status", "--jmx", "127.0.0.1:" + jmxPort, "--user", USER, "--password", PASSWORD);
        assertThat(onTheCommandLine.exit()).isEqualTo(2);
        assertThat(onTheCommandLine.err()).contains("Unknown options: '--password'");
        assertThat(unreachable.exit()).isEqualTo(3);
        assertThat(unreachable.err().strip()).startsWith("shardvault admin: cannot reach the cluster's JMX at 127.0.0.1:"
                + dead).doesNotContain("\n").doesNotContain("at java.");
    }

    /**
     * A shard file rotted on one pod: its scrubber's passes count it corrupt, and {@code pod scrub-status}
     * shows every pod's rate, pass and last complete pass with that count.
     */
    @Test
    void cliScrubStatusShowsEachPodsPassesAndWhatTheyFound() throws Exception {
        int damaged = 11;
        Set<ShardId> before = shardsOn(damaged);
        try (S3Client s3 = s3(S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY)) {
            s3.createBucket(b -> b.bucket("scrubbed"));
            s3.putObject(b -> b.bucket("scrubbed").key("rots"), RequestBody.fromBytes(body(1 << 20)));
        }
        Set<ShardId> added = shardsOn(damaged);
        added.removeAll(before);
        ShardId rotted = added.iterator().next();
        Path file = nodes.shardFile(damaged, rotted);
        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x5A; // inside a chunk: fails its CRC32C
        java.nio.file.Files.write(file, bytes);

        PodMXBean pod = JMX.newMXBeanProxy(mbeans, CoordinatorAdmin.podName(1, damaged), PodMXBean.class);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pod.getStatus().getScrub().getLastCorrupt() < 1) {
            assertThat(System.nanoTime()).as("a pass of pod %d found the rotted shard", damaged).isLessThan(deadline);
            Thread.sleep(100);
        }
        var scrub = pod.getStatus().getScrub();
        assertThat(scrub.isReported()).isTrue();
        assertThat(scrub.getBytesPerSecond()).isEqualTo(8L << 20);
        assertThat(scrub.getLastFiles()).isPositive();
        assertThat(scrub.getLastBytes()).isGreaterThanOrEqualTo(64 * 1024);
        assertThat(scrub.getLastEnd()).isNotEmpty();

        AdminCliRun status = cli(withCredentials("pod", "scrub-status"));
        assertThat(status.exit()).as(status.err()).isZero();
        LOG.info("pod scrub-status:\n{}", status.out());
        List<String> lines = status.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("SCRUBBING");
        assertThat(lines.get(1)).startsWith("VAULT").contains("RATE", "PASS", "PROGRESS", "POSITION",
                "LAST PASS ENDED", "TOOK", "FILES", "BYTES", "CORRUPT", "MISSING", "HELD");
        assertThat(lines).hasSize(22);
        String address = "127.0.0.1:" + nodes.podAddress(damaged).getPort();
        assertThat(lines.stream().filter(l -> l.startsWith("1 ") && l.contains(address + " "))).singleElement()
                .satisfies(l -> assertThat(l).contains("8.0 MiB/s").matches(".*\\s1\\s+0\\s+\\d+\\s*$"));
        AdminCliRun json = cli(withCredentials("pod", "scrub-status", "--json"));
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out()).startsWith("[{\"vaultId\":1,\"shardIndex\":0,").contains("\"lastCorrupt\":1,");
    }

    /**
     * A pod whose tome failed (its record left in the state directory, as the flusher writes it, so
     * the pod starts with the tome failed): the status says DEGRADED and names pod, tome, path, since
     * when and why, over JMX and in the CLI; cleared as docs/OPERATIONS.md says, it is HEALTHY again.
     */
    @Test
    void cliStatusShowsAFailedTomeAndSaysDegraded() throws Exception {
        int shard = 7;
        Path record = nodes.podStateDir(shard).resolve("failed-tome-0");
        nodes.stopPod(shard);
        java.nio.file.Files.writeString(record, "shardvault failed tome v1\npod=p7\ntome=0\ndirectory=/d\n"
                + "failedAt=2026-11-22T02:20:20Z\nreason=shard 1:7:3 failed its fsync and its stash copy is gone\n");
        try {
            nodes.restartPod(shard);
            PodMXBean pod = JMX.newMXBeanProxy(mbeans, CoordinatorAdmin.podName(1, shard), PodMXBean.class);
            assertThat(pod.getStatus().getFailedTomes()).singleElement().satisfies(t -> {
                assertThat(t.getTome()).isZero();
                assertThat(t.getFailedAt()).isEqualTo("2026-11-22T02:20:20Z");
                assertThat(t.getReason()).isEqualTo("shard 1:7:3 failed its fsync and its stash copy is gone");
                assertThat(t.isRecorded()).isTrue();
            });

            AdminCliRun status = cli(withCredentials("status"));
            assertThat(status.exit()).as(status.err()).isZero();
            LOG.info("status:\n{}", status.out());
            String address = "127.0.0.1:" + nodes.podAddress(shard).getPort();
            assertThat(status.out()).startsWith("CLUSTER DEGRADED\n")
                    .contains("  - pod 7 of vault 1 (" + address + ") has FAILED tome 0 (");
            List<String> failedTomes = status.out().lines().dropWhile(l -> !l.equals("FAILED TOMES")).skip(1)
                    .takeWhile(l -> !l.isEmpty()).toList();
            assertThat(failedTomes).hasSize(2);
            assertThat(failedTomes.get(0)).startsWith("VAULT").contains("TOME", "PATH", "SINCE", "RECORDED", "WHY");
            assertThat(failedTomes.get(1)).matches("1\\s+7\\s+" + address + "\\s+0\\s+/\\S+\\s+"
                    + "2026-11-22T02:20:20Z\\s+yes\\s+shard 1:7:3 failed its fsync and its stash copy is gone");
            AdminCliRun json = cli(withCredentials("status", "--json"));
            assertThat(json.out()).startsWith("{\"verdict\":\"DEGRADED\",\"reasons\":[\"pod 7 of vault 1")
                    .contains("\"failedTomes\":[{\"directory\":");
        } finally {
            nodes.stopPod(shard);
            java.nio.file.Files.delete(record);
            nodes.restartPod(shard);
        }
        AdminCliRun cleared = cli(withCredentials("status"));
        assertThat(cleared.out()).as(cleared.out()).startsWith("CLUSTER HEALTHY\n").contains("FAILED TOMES\n(none)");
    }

    @Test
    void cliRunsAsAChildJvm() throws Exception {
        try (ChildJvm cli = ChildJvm.builder(AdminCli.class).name("cli")
                .args("status", "--jmx", "127.0.0.1:" + jmxPort, "--password-file", writePasswordFile().toString())
                .start()) {
            int exit = cli.awaitExit(Duration.ofSeconds(90));
            String output = String.join("\n", cli.output());
            assertThat(exit).as(output).isZero();
            assertThat(output).contains("VAULTS", "PODS", "LEADER");
        }

        try (ChildJvm dead = ChildJvm.builder(AdminCli.class).name("cli")
                .args("status", "--jmx", "127.0.0.1:" + FreePorts.loopback(), "--password-file", writePasswordFile().toString())
                .start()) {
            int exit = dead.awaitExit(Duration.ofSeconds(90));
            String text = String.join("\n", dead.output());
            assertThat(exit).as(text).isEqualTo(3);
            assertThat(text).contains("cannot reach the cluster's JMX").doesNotContain("Exception in thread");
        }
    }

    private Path writePasswordFile() throws IOException {
        Path f = dir.resolve("cli.password");
        java.nio.file.Files.writeString(f, "# the CLI's credentials\n" + USER + " " + PASSWORD + "\n");
        return f;
    }

    /**
     * Issue #24: {@code admin buckets list|show|quota set}, and a quota enforced on every kind of write before any
     * byte is stored (a refused PUT leaves no shard on a pod), counted from the catalog's exact usage.
     */
    @Test
    void cliBucketsShowUsageAndAQuotaRefusesWritesBeforeAnyByteIsStored() throws Exception {
        String bucket = "quota-" + seed % 1000;
        try (S3Client s3 = s3(S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY)) {
            s3.createBucket(b -> b.bucket(bucket));
            s3.putObject(b -> b.bucket(bucket).key("a"), RequestBody.fromBytes(body(300_000)));

            AdminCliRun set = cli(withCredentials("buckets", "quota", "set", bucket, "1MiB"));
            assertThat(set.exit()).as(set.err()).isZero();
            assertThat(set.out()).contains("quota set to 1.0 MiB (1048576 bytes)");
            assertThat(cli(withCredentials("buckets", "quota", "set", bucket, "lots")).exit()).isEqualTo(2);
            AdminCliRun list = cli(withCredentials("buckets", "list"));
            assertThat(list.exit()).as(list.err()).isZero();
            assertThat(list.out().lines().filter(l -> l.startsWith(bucket + " "))).singleElement().satisfies(
                    l -> assertThat(l).contains("UNVERSIONED", " 1 ", "293.0 KiB", "366.2 KiB", "1.0 MiB", "28.6%"));

            Set<Long> before = fileIds(shardsOn(0));
            assertQuotaExceeded(() -> s3.putObject(b -> b.bucket(bucket).key("b"), RequestBody.fromBytes(body(800_000))));
            assertThat(fileIds(shardsOn(0))).as("file ids on pod 0 after the refused PUT").isEqualTo(before);

            s3.putObject(b -> b.bucket(bucket).key("c"), RequestBody.fromBytes(body(600_000)));
            assertQuotaExceeded(() -> s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("a")
                    .destinationBucket(bucket).destinationKey("a-copy")));
            String upload = s3.createMultipartUpload(b -> b.bucket(bucket).key("mp")).uploadId();
            assertQuotaExceeded(() -> s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(upload).partNumber(1),
                    RequestBody.fromBytes(body(200_000))));

            // Parts that fit one by one, whose sum does not: the completion is refused.
            assertThat(cli(withCredentials("buckets", "quota", "set", bucket, "2000000")).exit()).isZero();
            String etag1 = s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(upload).partNumber(1),
                    RequestBody.fromBytes(body(600_000))).eTag();
            String etag2 = s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(upload).partNumber(2),
                    RequestBody.fromBytes(body(600_000))).eTag();
            assertQuotaExceeded(() -> s3.completeMultipartUpload(b -> b.bucket(bucket).key("mp").uploadId(upload)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                            CompletedPart.builder().partNumber(2).eTag(etag2).build()))));

            AdminCliRun show = cli(withCredentials("buckets", "show", bucket, "--json"));
            assertThat(show.exit()).as(show.err()).isZero();
            assertThat(show.out()).contains("\"storedBytes\":900000", "\"objects\":2", "\"quotaBytes\":2000000");

            assertThat(cli(withCredentials("buckets", "quota", "set", bucket, "none")).exit()).isZero();
            s3.putObject(b -> b.bucket(bucket).key("b"), RequestBody.fromBytes(body(800_000)));
            assertThat(cli(withCredentials("buckets", "show", bucket)).out()).contains("quota:       none",
                    "objects:     3", "lifecycle:   none");
            s3.putBucketLifecycleConfiguration(b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(
                    LifecycleRule.builder().id("logs").status(ExpirationStatus.ENABLED)
                            .filter(f -> f.prefix("logs/")).expiration(e -> e.days(30))
                            .abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(2)).build())));
            assertThat(cli(withCredentials("buckets", "show", bucket)).out()).contains("lifecycle:   1 rule",
                    "logs (enabled), keys \"logs/\": current versions expire after 30 days; incomplete uploads aborted"
                            + " 2 days after initiation");
        }
    }

    private static void assertQuotaExceeded(Runnable write) {
        assertThatThrownBy(write::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(403);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("QuotaExceeded");
        });
    }
}
