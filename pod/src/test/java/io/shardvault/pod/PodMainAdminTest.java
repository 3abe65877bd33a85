package io.shardvault.pod;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import java.io.BufferedReader;
import java.io.InputStreamReader;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real program in a child JVM, logging with the shipped logback.xml: it prints its admin
 * address, serves metrics and health there, and logs one key=value line per event.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PodMainAdminTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodMainAdminTest.class);

    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressServesMetricsAndHealthAndLogsKeyValueLines() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // One logback.xml for every service, shipped in common.
        Path shippedLogback = Path.of("../common/src/main/resources/logback.xml").toAbsolutePath();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-Dlogback.configurationFile=" + shippedLogback,
                "-cp", System.getProperty("java.class.path"), PodMain.class.getName(),
                "--set", "admin.bind=127.0.0.1:0", "--set", "pod.name=solo", "--set", "pod.bind=127.0.0.1:0",
                "--set", "pod.stateDir=" + dir.resolve("state"), "--set", "pod.tomes=" + dir.resolve("t0"),
                "--set", "pod.slots=0:0").redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        try {
            CompletableFuture<String> admin = new CompletableFuture<>();
            CompletableFuture<String> pod = new CompletableFuture<>();
            Thread drain = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        LOG.info("[pod pid {}] {}", process.pid(), line);
                        output.add(line);
                        if (line.startsWith("admin listening on ")) {
                            admin.complete(line.substring("admin listening on ".length()).trim());
                        } else if (line.startsWith("pod solo listening ")) {
                            pod.complete(line);
                        }
                    }
                } catch (Exception e) {
                    admin.completeExceptionally(e);
                }
                admin.completeExceptionally(new IllegalStateException("pod exited before its admin port listened"));
                pod.completeExceptionally(new IllegalStateException("pod exited before listening"));
            }, "pod-child-output");
            drain.setDaemon(true);
            drain.start();
            String adminAddress = admin.get(60, TimeUnit.SECONDS);
            pod.get(60, TimeUnit.SECONDS);

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(
                    URI.create("http://" + adminAddress + "/health/ready")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(
                    URI.create("http://" + adminAddress + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(PrometheusText.parse(metrics.body()).find("shardvault_pod_unflushed_bytes", "pod", "solo",
                    "service", "pod")).hasSize(1);
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
    }
}
