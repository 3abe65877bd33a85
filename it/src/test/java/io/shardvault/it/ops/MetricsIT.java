package io.shardvault.it.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.PrometheusText;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.Settings;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.testing.AdminScrape;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.CoordinatorProcess;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.it.s3.S3Cluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Issue #10's metrics and health, end to end: a real cluster (MiniCluster's 20 pods and 2 stash
 * servers publishing to one process registry with its own admin port, standing in for the node
 * processes) and a real coordinator process ({@link CoordinatorProcess}: its registry, admin port
 * and readiness probe) over a two-peer catalog whose second peer starts late, so the catalog
 * really has no leader at first. Both admin ports are scraped over HTTP and parsed; the S3 load is
 * the AWS SDK's.
 */
@Timeout(300)
class MetricsIT {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsIT.class);
    private static final long SEED = System.nanoTime();
    private static final String BUCKET = "metrics";

    @TempDir
    Path dir;

    @Test
    void readyOnlyWithLeaderAndWritableVault_andNamedMetricsMoveUnderLoad() throws Exception {
        LOG.info("seed {}", SEED);
        Random random = new Random(SEED);
        try (ProcessMetrics nodeMetrics = ProcessMetrics.create("pod", "mini-cluster");
             AdminServer nodeAdmin = AdminServer.start(AdminConfig.defaults(), nodeMetrics, Readiness::ready);
             MiniCluster cluster = MiniCluster.start(dir.resolve("nodes"),
                     MiniCluster.Options.defaults().withRegistry(nodeMetrics.registry()))) {
            Map<String, Object> settings = S3Cluster.coordinatorSettings(cluster, dir.resolve("catalog1"), 0);
            String peers = "c1=127.0.0.1:" + FreePorts.loopback() + ",c2=127.0.0.1:" + FreePorts.loopback();
            settings.put("catalog.peers", peers);
            settings.put("catalog.election.timeoutMin", "300ms");
            settings.put("catalog.election.timeoutMax", "600ms");
            settings.put("coordinator.accessKey", S3Cluster.ACCESS_KEY);
            settings.put("coordinator.secretKey", S3Cluster.SECRET_KEY);
            settings.put("admin.bind", "127.0.0.1:0");
            try (CoordinatorProcess process = CoordinatorProcess.openAdmin(Settings.of(settings), "it-coordinator")) {
                URI admin = uri(process.adminAddress());
                CompletableFuture<Coordinator> starting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return process.startCoordinator();
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                });

                // One peer of two: no majority, no leader; the process is live but not ready.
                for (int i = 0; i < 5; i++) {
                    assertThat(scrape(admin).get("/health/live").statusCode()).isEqualTo(200);
                    HttpResponse<String> ready = scrape(admin).get("/health/ready");
                    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
                    assertThat(ready.body()).contains("leader");
                    Thread.sleep(300);
                }
                assertThat(starting).isNotDone();

                Map<String, Object> c2 = new HashMap<>(settings);
                c2.put("catalog.peerId", "c2");
                c2.put("catalog.dataDir", dir.resolve("catalog2").toString());
                try (CatalogServer second = RatisCatalogServer.start(CatalogConfig.from(Settings.of(c2)),
                        new SimpleMeterRegistry())) {
                    Coordinator coordinator = starting.get(120, TimeUnit.SECONDS);
                    awaitReady(admin, 200);
                    assertThat(scrape(admin).get("/health/ready").body()).startsWith("ready");
                    assertThat(second.leaderId()).isPresent();

                    PrometheusText coordinatorBefore = scrape(admin).metrics();
                    PrometheusText nodesBefore = scrape(uri(nodeAdmin.localAddress())).metrics();
                    try (S3Client s3 = S3Cluster.syncClient(uri(coordinator.s3Address()), S3Cluster.ACCESS_KEY,
                            S3Cluster.SECRET_KEY, Duration.ofSeconds(60))) {
                        LoadedObjects loaded = runLoad(s3, random);
                        // Before any node stops: a stopped stash server takes its meters with it.
                        PrometheusText nodesAfter = scrape(uri(nodeAdmin.localAddress())).metrics();
                        assertNodeMeters(nodesBefore, nodesAfter);
                        assertConventions(nodeMetrics, nodesAfter);
                        runDegradedLoad(cluster, s3, random, loaded);
                    }
                    PrometheusText coordinatorAfter = scrape(admin).metrics();

                    assertCoordinatorMeters(coordinatorBefore, coordinatorAfter);
                    assertConventions(process.metrics(), coordinatorAfter);

                    // Pod 0 stopped during the load, now pod 5: 18 < the write quorum of 19, not writable.
                    cluster.stopPod(5);
                    HttpResponse<String> notWritable = awaitReady(admin, 503);
                    assertThat(notWritable.body()).contains("not writable").contains("18 of 20");
                }
            }
        }
    }

    private record LoadedObjects(byte[] large) {
    }

    /** Small puts (the stash path), a multi-stripe put (durable), reads of both, a miss (404). */
    private static LoadedObjects runLoad(S3Client s3, Random random) {
        s3.createBucket(b -> b.bucket(BUCKET));
        List<byte[]> small = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            byte[] data = new byte[1 + random.nextInt(32 << 10)];
            random.nextBytes(data);
            small.add(data);
            int n = i;
            s3.putObject(p -> p.bucket(BUCKET).key("small-" + n), RequestBody.fromBytes(data));
        }
        byte[] large = new byte[(3 << 20) + random.nextInt(1 << 20)];
        random.nextBytes(large);
        s3.putObject(p -> p.bucket(BUCKET).key("large"), RequestBody.fromBytes(large));
        for (int i = 0; i < small.size(); i++) {
            int n = i;
            assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("small-" + n)).asByteArray())
                    .isEqualTo(small.get(i));
        }
        assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("large")).asByteArray()).isEqualTo(large);
        try {
            s3.getObject(g -> g.bucket(BUCKET).key("missing")).close();
        } catch (NoSuchKeyException expected) {
            // the 4xx the status-class tag must show
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new LoadedObjects(large);
    }

    /** With both stash servers down a small put falls back to durable; with a pod down a read must decode. */
    private static void runDegradedLoad(MiniCluster cluster, S3Client s3, Random random, LoadedObjects loaded) {
        byte[] large = loaded.large();
        cluster.stopStash(0);
        cluster.stopStash(1);
        byte[] fallback = new byte[4096];
        random.nextBytes(fallback);
        s3.putObject(p -> p.bucket(BUCKET).key("fallback"), RequestBody.fromBytes(fallback));

        cluster.stopPod(0);
        assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("large")).asByteArray()).isEqualTo(large);
        assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("fallback")).asByteArray()).isEqualTo(fallback);
    }

    private static void assertCoordinatorMeters(PrometheusText before, PrometheusText after) {
        moved(before, after, "shardvault_s3_requests_seconds_count", "operation", "PutObject", "status", "2xx");
        moved(before, after, "shardvault_s3_requests_seconds_count", "operation", "GetObject", "status", "2xx");
        moved(before, after, "shardvault_s3_requests_seconds_count", "operation", "GetObject", "status", "4xx");
        moved(before, after, "shardvault_s3_requests_seconds_bucket", "operation", "PutObject", "status", "2xx");
        moved(before, after, "shardvault_s3_bytes_in_total");
        moved(before, after, "shardvault_s3_bytes_out_total");
        moved(before, after, "shardvault_rpc_client_calls_seconds_count", "op", "pod.write", "outcome", "ok");
        moved(before, after, "shardvault_rpc_client_calls_seconds_count", "op", "pod.read", "outcome", "ok");
        moved(before, after, "shardvault_rpc_client_calls_seconds_count", "op", "stash.putMany", "outcome", "ok");
        assertThat(after.find("shardvault_rpc_client_calls_seconds_count", "op", "pod.write"))
                .allSatisfy(s -> assertThat(s.labels().get("peer")).matches("127\\.0\\.0\\.1:\\d+"));
        moved(before, after, "shardvault_erasure_encode_seconds_count");
        moved(before, after, "shardvault_erasure_decode_seconds_count");
        assertThat(after.find("shardvault_erasure_encode_seconds_count").get(0).labels().get("codec"))
                .isIn("native", "java");
        moved(before, after, "shardvault_catalog_commit_seconds_count");
        moved(before, after, "shardvault_catalog_read_seconds_count");
        assertThat(after.sum("shardvault_catalog_term", "peer", "c1")).hasValueSatisfying(t -> assertThat(t).isPositive());
        assertThat(after.sum("shardvault_catalog_leader_changes_total", "peer", "c1"))
                .hasValueSatisfying(n -> assertThat(n).isGreaterThanOrEqualTo(1));
        assertThat(after.find("shardvault_catalog_leader", "peer", "c1")).hasSize(1);
        moved(before, after, "shardvault_data_write_fallbacks_total", "reason", "stash_unreachable");
        assertThat(after.find("shardvault_data_write_fallbacks_total", "reason", "stash_full")).hasSize(1);
        assertThat(after.find("shardvault_data_write_fallbacks_total", "reason", "stash_down")).hasSize(1);
    }

    private static void assertNodeMeters(PrometheusText before, PrometheusText after) {
        moved(before, after, "shardvault_rpc_server_requests_seconds_count", "op", "pod.write", "outcome", "ok");
        moved(before, after, "shardvault_rpc_server_requests_seconds_count", "op", "stash.putMany", "outcome", "ok");
        moved(before, after, "shardvault_pod_write_latency_seconds_count");
        moved(before, after, "shardvault_pod_flush_latency_seconds_count");
        for (String gauge : List.of("shardvault_stash_entries", "shardvault_stash_bytes",
                "shardvault_stash_oldest_entry_age_seconds", "shardvault_stash_full_total",
                "shardvault_pod_unflushed_bytes", "shardvault_pod_purge_queue_depth",
                "shardvault_pod_purge_queue_oldest_age_milliseconds", "shardvault_pod_crc_failures_total")) {
            assertThat(after.find(gauge)).as(gauge).isNotEmpty();
        }
    }

    /**
     * Every meter of the registry is named under {@code shardvault.}, and so is every scraped series but the JVM's
     * own, which Micrometer's binders publish to Prometheus only under the names JVM dashboards expect
     * ({@code jvm_}, {@code process_}, {@code system_}; issue #24); all carry the service and node tags.
     */
    private static void assertConventions(ProcessMetrics metrics, PrometheusText scraped) {
        List<String> strays = metrics.registry().getMeters().stream().map(Meter::getId).map(Meter.Id::getName)
                .filter(name -> !name.matches("shardvault(\\.[a-z0-9]+)+")).distinct().toList();
        assertThat(strays).as("meters not named shardvault.<lower.case.dotted>").isEmpty();
        assertThat(metrics.registry().getMeters()).isNotEmpty();
        TreeSet<String> names = new TreeSet<>();
        scraped.samples().forEach(s -> names.add(s.name()));
        LOG.info("scraped series names: {}", names);
        assertThat(names).allSatisfy(n -> assertThat(n).matches("(shardvault|jvm|process|system)_.*"));
        assertThat(names).anyMatch(n -> n.startsWith("shardvault_"));
        assertThat(scraped.samples()).allSatisfy(s -> assertThat(s.labels()).containsKeys("service", "node"));
    }

    private static void moved(PrometheusText before, PrometheusText after, String name, String... labels) {
        double was = before.sum(name, labels).orElse(0.0);
        assertThat(after.sum(name, labels)).as("%s %s", name, List.of(labels)).isPresent()
                .hasValueSatisfying(now -> assertThat(now).as("%s %s moved", name, List.of(labels)).isGreaterThan(was));
    }

    private HttpResponse<String> awaitReady(URI admin, int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        HttpResponse<String> last;
        do {
            last = scrape(admin).get("/health/ready");
            if (last.statusCode() == status) {
                return last;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("/health/ready never answered " + status + "; last: " + last.statusCode() + " "
                + last.body());
    }

    private static URI uri(InetSocketAddress a) {
        return URI.create("http://127.0.0.1:" + a.getPort());
    }

    private static AdminScrape scrape(URI admin) {
        return new AdminScrape(admin.getHost() + ":" + admin.getPort());
    }
}
