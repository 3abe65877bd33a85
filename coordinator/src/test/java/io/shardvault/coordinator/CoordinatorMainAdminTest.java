package io.shardvault.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import io.shardvault.common.testing.AdminScrape;
import io.shardvault.common.testing.ChildJvm;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real coordinator program in a child JVM, logging with the shipped logback.xml: it prints its
 * admin address before the catalog is up, serves its meters (tagged {@code service=coordinator})
 * and answers {@code /health/ready} 503 with the reason while its vault has no reachable pod. It writes
 * the S3 audit log by default: a refused request is a JSON line there.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CoordinatorMainAdminTest {
    /** Twenty pods nobody listens on: the coordinator starts, but its vault is not writable. */
    private static final String PODS = IntStream.range(0, 20).mapToObj(i -> "127.0.0.1:" + (i + 1))
            .collect(Collectors.joining(","));

    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressServesMetricsAndReportsAnUnwritableVault() throws Exception {
        Path shippedLogback = Path.of("../common/src/main/resources/logback.xml").toAbsolutePath();
        ChildJvm child = ChildJvm.builder(CoordinatorMain.class).name("coordinator")
                .jvmArgs("-Xmx384m", "-Dlogback.configurationFile=" + shippedLogback)
                .args("--set", "admin.bind=127.0.0.1:0", "--set", "s3.bindHost=127.0.0.1", "--set", "s3.port=0",
                        "--set", "catalog.peerId=c1", "--set", "catalog.peers=c1=127.0.0.1:" + FreePorts.loopback(),
                        "--set", "catalog.dataDir=" + dir.resolve("catalog"),
                        "--set", "catalog.secrets.keyFile=" + ClusterKeyFile.in(dir),
                        "--set", "coordinator.vault.pods=" + PODS, "--set", "audit.file=" + dir.resolve("audit.json"))
                .start();
        try (child) {
            AdminScrape admin = new AdminScrape(child.awaitLine("admin listening on ", Duration.ofSeconds(90)));
            String s3 = child.awaitLine("coordinator S3 endpoint ready on ", Duration.ofSeconds(90));

            // The service writes the audit log by default: an anonymous ListBuckets, refused, is one JSON line.
            HttpResponse<String> refused = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(s3 + "/")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(403);
            String requestId = refused.headers().firstValue("x-amz-request-id").orElseThrow();
            Path audit = dir.resolve("audit.json");
            long auditDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!(Files.exists(audit) && Files.readString(audit).contains(requestId))
                    && System.nanoTime() < auditDeadline) {
                Thread.sleep(20);
            }
            String line = Files.readString(audit).lines().filter(l -> l.contains(requestId)).findFirst().orElseThrow();
            Map<String, Object> record = new HashMap<>();
            ConfigFactory.parseString(line, ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON))
                    .getObjectList("kvpList").forEach(pair -> record.putAll(pair.unwrapped()));
            assertThat(record).containsEntry("requestId", requestId).containsEntry("operation", "ListBuckets")
                    .containsEntry("status", "403").containsEntry("errorCode", "AccessDenied");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            HttpResponse<String> ready;
            do {
                ready = admin.get("/health/ready");
                Thread.sleep(200);
            } while (!ready.body().contains("not writable") && System.nanoTime() < deadline);
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("vault 0 not writable: 0 of 20 pods reachable, writes need 19");
            assertThat(admin.get("/health/live").statusCode()).isEqualTo(200);

            PrometheusText scraped = admin.metrics();
            assertThat(scraped.find("shardvault_catalog_leader", "peer", "c1", "service", "coordinator"))
                    .singleElement().satisfies(s -> assertThat(s.value()).isEqualTo(1.0));
            assertThat(scraped.sum("shardvault_catalog_commit_seconds_count", "service", "coordinator"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
            assertThat(scraped.sum("shardvault_repair_degraded_files", "service", "coordinator"))
                    .hasValueSatisfying(n -> assertThat(n).isZero());
            assertThat(scraped.sum("shardvault_rpc_client_calls_seconds_count", "op", "pod.stats",
                    "outcome", "unreachable")).isEmpty();
        }
        List<String> output = child.output();
        assertThat(output).anySatisfy(line -> assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z level=INFO thread=\\S+ logger=AdminServer msg=\"admin serving .*\""));
        assertThat(output).noneMatch(line -> line.startsWith("\tat ") || line.contains("|-WARN")
                || line.contains("|-ERROR"));
        assertThat(output).noneMatch(line -> line.contains("logger=Raft") && line.contains("level=INFO"));
    }

    @Test
    void refusesToStartWithoutAClusterKeyFile() throws Exception {
        ChildJvm child = ChildJvm.builder(CoordinatorMain.class).name("coordinator-without-keys").jvmArgs("-Xmx256m")
                .args("--set", "admin.bind=127.0.0.1:0", "--set", "s3.bindHost=127.0.0.1", "--set", "s3.port=0",
                        "--set", "catalog.peerId=c1", "--set", "catalog.peers=c1=127.0.0.1:" + FreePorts.loopback(),
                        "--set", "catalog.dataDir=" + dir.resolve("catalog"), "--set", "coordinator.vault.pods=" + PODS,
                        "--set", "audit.file=" + dir.resolve("audit.json"))
                .start();
        try (child) {
            assertThat(child.awaitExit(Duration.ofSeconds(90))).isEqualTo(2);
        }
        assertThat(child.output()).anySatisfy(line -> assertThat(line)
                .contains("catalog.secrets.keyFile is not set").contains("security.insecure = true"));
        assertThat(dir.resolve("catalog")).doesNotExist();
    }

}
