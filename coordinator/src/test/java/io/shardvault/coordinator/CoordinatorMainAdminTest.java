package io.shardvault.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real coordinator program in a child JVM, logging with the shipped logback.xml: it prints its
 * admin address before the catalog is up, serves its meters (tagged {@code service=coordinator})
 * and answers {@code /health/ready} 503 with the reason while its vault has no reachable pod.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CoordinatorMainAdminTest {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorMainAdminTest.class);

    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressServesMetricsAndReportsAnUnwritableVault() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path shippedLogback = Path.of("../common/src/main/resources/logback.xml").toAbsolutePath();
        // Twenty pods nobody listens on: the coordinator starts, but its vault is not writable.
        String pods = IntStream.range(0, 20).mapToObj(i -> "127.0.0.1:" + (i + 1)).collect(Collectors.joining(","));
        Process process = new ProcessBuilder(java, "-Xmx384m", "-Dlogback.configurationFile=" + shippedLogback,
                "-cp", System.getProperty("java.class.path"), CoordinatorMain.class.getName(),
                "--set", "admin.bind=127.0.0.1:0", "--set", "s3.bindHost=127.0.0.1", "--set", "s3.port=0",
                "--set", "catalog.peerId=c1", "--set", "catalog.peers=c1=127.0.0.1:" + freePort(),
                "--set", "catalog.dataDir=" + dir.resolve("catalog"), "--set", "coordinator.vault.pods=" + pods)
                .redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        try {
            CompletableFuture<String> admin = new CompletableFuture<>();
            CompletableFuture<String> s3 = new CompletableFuture<>();
            Thread drain = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        LOG.info("[coordinator pid {}] {}", process.pid(), line);
                        output.add(line);
                        if (line.startsWith("admin listening on ")) {
                            admin.complete(line.substring("admin listening on ".length()).trim());
                        } else if (line.startsWith("coordinator S3 endpoint ready on ")) {
                            s3.complete(line);
                        }
                    }
                } catch (IOException e) {
                    admin.completeExceptionally(e);
                }
                admin.completeExceptionally(new IllegalStateException("exited before its admin port listened"));
                s3.completeExceptionally(new IllegalStateException("exited before its S3 endpoint listened"));
            }, "coordinator-child-output");
            drain.setDaemon(true);
            drain.start();
            String adminAddress = admin.get(90, TimeUnit.SECONDS);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            s3.get(90, TimeUnit.SECONDS);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            HttpResponse<String> ready;
            do {
                ready = get(http, adminAddress, "/health/ready");
                Thread.sleep(200);
            } while (!ready.body().contains("not writable") && System.nanoTime() < deadline);
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("vault 0 not writable: 0 of 20 pods reachable, writes need 19");
            assertThat(get(http, adminAddress, "/health/live").statusCode()).isEqualTo(200);

            HttpResponse<String> metrics = get(http, adminAddress, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            PrometheusText scraped = PrometheusText.parse(metrics.body());
            assertThat(scraped.find("shardvault_catalog_leader", "peer", "c1", "service", "coordinator"))
                    .singleElement().satisfies(s -> assertThat(s.value()).isEqualTo(1.0));
            assertThat(scraped.sum("shardvault_catalog_commit_seconds_count", "service", "coordinator"))
                    .hasValueSatisfying(n -> assertThat(n).isPositive());
            assertThat(scraped.sum("shardvault_rpc_client_calls_seconds_count", "op", "pod.stats",
                    "outcome", "unreachable")).isEmpty();
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertThat(output).anySatisfy(line -> assertThat(line)
                .matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z level=INFO thread=\\S+ logger=AdminServer msg=\"admin serving .*\""));
        assertThat(output).noneMatch(line -> line.startsWith("\tat ") || line.contains("|-WARN")
                || line.contains("|-ERROR"));
        assertThat(output).noneMatch(line -> line.contains("logger=Raft") && line.contains("level=INFO"));
    }

    private static HttpResponse<String> get(HttpClient http, String address, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + address + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
