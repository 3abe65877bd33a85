package io.shardvault.it.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Replacing a dead pod, as an operator does it (issue #20, section 3; docs/OPERATIONS.md): a cluster
 * loaded over S3 with small (stashed), large and multipart objects; one pod's tome wiped; {@code shardvault
 * admin pod rebuild N --check}, then {@code pod rebuild N}, followed with {@code pod rebuild-status} until
 * done; then four other pods and the stash stopped: every object still reads back bit-exact over S3,
 * which only the rebuilt shards make possible. And a pod moved to a new address, as an operator does it
 * (docs/OPERATIONS.md, "Decommissioning a pod"): {@code pod decommission N --to HOST:PORT}, whose DONE
 * switches the running coordinator (no restart), the catch-up rebuild, an object written after; with the
 * old pod and four others stopped every object reads back, and again from a coordinator restarted with the
 * old address still in {@code coordinator.vault.pods} (the catalog's map wins).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PodRebuildIT {
    private static final Logger LOG = LoggerFactory.getLogger(PodRebuildIT.class);
    private static final String USER = "ops";
    private static final String PASSWORD = "jmx-secret-" + 7;
    private static final String BUCKET = "rebuilt";

    @TempDir
    Path dir;

    private int jmxPort;
    private final long seed = System.nanoTime();
    private final SplittableRandom random = new SplittableRandom(seed);

    @Test
    void aWipedPodIsRebuiltThroughTheCliAndCarriesEveryObjectWithFourOtherPodsDown() throws Exception {
        LOG.info("seed {}", seed);
        int wiped = 9;
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Map<String, Object> s = settings(nodes);
            // Slow enough that a second start arrives while the job runs.
            s.put("repair.rebuild.bytesPerSecond", "1MiB");
            try (Coordinator coordinator = Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
                 S3Client s3 = s3(coordinator)) {
                s3.createBucket(b -> b.bucket(BUCKET));
                Map<String, byte[]> objects = new LinkedHashMap<>();
                for (int i = 0; i < 4; i++) {
                    objects.put("small-" + i, body(30_000 + 70_000 * i));
                }
                objects.put("large", body(11 * 1024 * 1024 + 333));
                put(s3, objects);
                byte[] part1 = body(5 * 1024 * 1024);
                byte[] part2 = body(1024 * 1024 + 99);
                String upload = s3.createMultipartUpload(c -> c.bucket(BUCKET).key("multipart")).uploadId();
                String e1 = s3.uploadPart(u -> u.bucket(BUCKET).key("multipart").uploadId(upload).partNumber(1),
                        RequestBody.fromBytes(part1)).eTag();
                String e2 = s3.uploadPart(u -> u.bucket(BUCKET).key("multipart").uploadId(upload).partNumber(2),
                        RequestBody.fromBytes(part2)).eTag();
                s3.completeMultipartUpload(c -> c.bucket(BUCKET).key("multipart").uploadId(upload)
                        .multipartUpload(CompletedMultipartUpload.builder().parts(
                                CompletedPart.builder().partNumber(1).eTag(e1).build(),
                                CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
                byte[] whole = new byte[part1.length + part2.length];
                System.arraycopy(part1, 0, whole, 0, part1.length);
                System.arraycopy(part2, 0, whole, part1.length, part2.length);
                objects.put("multipart", whole);

                nodes.wipePod(wiped);

                AdminCliRun check = cli("pod", "rebuild", String.valueOf(wiped), "--check");
                assertThat(check.exit()).as(check.err()).isZero();
                assertThat(check.out()).contains("check of pod " + wiped + " in vault " + MiniCluster.VAULT_ID
                        + " started", "POD REBUILD", "check only");
                String checked = awaitDone();
                assertThat(checked).contains("\"mode\":\"check\"").doesNotContain("\"shardsRebuilt\":0,");
                LOG.info("check:\n{}", cli("pod", "rebuild-status").out());

                AdminCliRun start = cli("pod", "rebuild", String.valueOf(wiped));
                assertThat(start.exit()).as(start.err()).isZero();
                LOG.info("operator sees:\n{}", start.out());
                assertThat(start.out()).contains("rebuild of pod " + wiped, "state:            RUNNING");
                AdminCliRun again = cli("pod", "rebuild", String.valueOf(wiped));
                assertThat(again.exit()).as("a second start while it runs").isEqualTo(1);
                assertThat(again.err()).contains("is being rebuilt already");
                String done = awaitDone();
                assertThat(done).contains("\"mode\":\"rebuild\"", "\"failures\":0");
                AdminCliRun status = cli("pod", "rebuild-status");
                LOG.info("operator sees:\n{}", status.out());
                assertThat(status.out()).contains("state:            DONE", "shards rebuilt:   ",
                        "eta:              -");

                for (int pod : new int[] {0, 1, 2, 19}) {
                    nodes.stopPod(pod);
                }
                for (int st = 0; st < nodes.stashAddresses().size(); st++) {
                    nodes.stopStash(st);
                }
                assertReadBack(s3, objects);
            }
        }
    }

    @Test
    void aDecommissionSwitchesTheRunningCoordinatorToTheReplacementAndARestartKeepsTheCatalogsMap() throws Exception {
        LOG.info("seed {}", seed);
        int retiring = 6;
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Map<String, Object> s = settings(nodes);
            s.put("coordinator.podStates.refresh", "200ms");
            Map<String, byte[]> objects = new LinkedHashMap<>();
            try (Coordinator coordinator = Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
                 S3Client s3 = s3(coordinator)) {
                s3.createBucket(b -> b.bucket(BUCKET));
                objects.put("small", body(60_000));
                objects.put("large", body(9 * 1024 * 1024 + 77));
                put(s3, objects);
                InetSocketAddress onto = nodes.startReplacement(retiring);

                AdminCliRun start = cli("pod", "decommission", String.valueOf(retiring), "--to", "127.0.0.1:" + onto.getPort());
                assertThat(start.exit()).as(start.err()).isZero();
                assertThat(awaitDone()).contains("\"mode\":\"decommission\"", "\"failures\":0");
                // No restart: the running coordinator's map gives the pod the replacement's address by itself.
                awaitStatusShows("\"address\":\"127.0.0.1:" + onto.getPort() + "\"");
                AdminCliRun catchUp = cli("pod", "rebuild", String.valueOf(retiring));
                assertThat(catchUp.exit()).as(catchUp.err()).isZero();
                assertThat(awaitDone()).contains("\"failures\":0");
                // Written after the switch: its shard goes to the replacement, or it could not read back below.
                Map<String, byte[]> late = Map.of("after-switch", body(2 * 1024 * 1024 + 5));
                put(s3, late);
                objects.putAll(late);

                nodes.stopPod(retiring);
                for (int pod : new int[] {0, 1, 2, 19}) {
                    nodes.stopPod(pod);
                }
                assertReadBack(s3, objects);
            }
            // coordinator.vault.pods still names the old pod, which is stopped: only the catalog's map reads now.
            s.put("jmx.remote.enabled", false);
            try (Coordinator restarted = Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
                 S3Client s3 = s3(restarted)) {
                assertReadBack(s3, objects);
            }
        }
    }

    /** A coordinator's settings for {@code nodes}: remote JMX for the CLI, rebuilds looked for every 200 ms. */
    private Map<String, Object> settings(MiniCluster nodes) throws IOException {
        jmxPort = FreePorts.loopback();
        Map<String, Object> s = S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0);
        s.put("coordinator.accessKey", S3Cluster.ACCESS_KEY);
        s.put("coordinator.secretKey", S3Cluster.SECRET_KEY);
        s.put("jmx.remote.enabled", true);
        s.put("jmx.remote.bind", "127.0.0.1:" + jmxPort);
        s.put("jmx.remote.user", USER);
        s.put("jmx.remote.password", PASSWORD);
        s.put("repair.rebuild.interval", "200ms");
        s.put("repair.rebuild.gatherDelay", "0s");
        s.put("repair.rebuild.checkpoint.files", "2");
        return s;
    }

    private static S3Client s3(Coordinator coordinator) {
        return S3Cluster.syncClient(URI.create("http://127.0.0.1:" + coordinator.s3Address().getPort()),
                S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY, Duration.ofSeconds(60));
    }

    private static void put(S3Client s3, Map<String, byte[]> objects) {
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            s3.putObject(p -> p.bucket(BUCKET).key(o.getKey()), RequestBody.fromBytes(o.getValue()));
        }
    }

    private static void assertReadBack(S3Client s3, Map<String, byte[]> objects) {
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key(o.getKey())).asByteArray())
                    .as(o.getKey()).isEqualTo(o.getValue());
        }
    }

    /** Polls {@code status --json} (bounded) until it holds {@code address}'s field. */
    private void awaitStatusShows(String address) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            if (cli("status", "--json").out().contains(address)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the coordinator's map did not switch to " + address);
    }

    /** Polls {@code pod rebuild-status --json} until no job runs; the JSON then. */
    private String awaitDone() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            AdminCliRun r = cli("pod", "rebuild-status", "--json");
            assertThat(r.exit()).as(r.err()).isZero();
            if (!r.out().contains("\"state\":\"RUNNING\"")) {
                return r.out();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the pod rebuild did not finish");
    }

    private byte[] body(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    private AdminCliRun cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        try {
            Path file = dir.resolve("cli.password");
            java.nio.file.Files.writeString(file, USER + " " + PASSWORD + "\n");
            all.addAll(List.of("--jmx", "127.0.0.1:" + jmxPort, "--password-file", file.toString()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return AdminCliRun.execute(all.toArray(String[]::new));
    }

}
