package io.shardvault.stash;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The real program in a child JVM: it prints its admin address and serves metrics and health there. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StashMainAdminTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashMainAdminTest.class);

    @TempDir
    Path dir;

    @Test
    void printsTheAdminAddressAndServesMetricsAndHealthThere() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StashMain.class.getName(), "--bind", "127.0.0.1:0", "--data", dir.resolve("stash").toString(),
                "--set", "admin.bind=127.0.0.1:0").redirectErrorStream(true).start();
        try {
            CompletableFuture<String> admin = new CompletableFuture<>();
            CompletableFuture<String> stash = new CompletableFuture<>();
            Thread drain = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        LOG.info("[stash pid {}] {}", process.pid(), line);
                        if (line.startsWith("admin listening on ")) {
                            admin.complete(line.substring("admin listening on ".length()).trim());
                        } else if (line.startsWith("stash listening on ")) {
                            stash.complete(line);
                        }
                    }
                } catch (Exception e) {
                    admin.completeExceptionally(e);
                }
                admin.completeExceptionally(new IllegalStateException("stash exited before its admin port listened"));
                stash.completeExceptionally(new IllegalStateException("stash exited before listening"));
            }, "stash-child-output");
            drain.setDaemon(true);
            drain.start();
            String adminAddress = admin.get(60, TimeUnit.SECONDS);
            stash.get(60, TimeUnit.SECONDS);

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(
                    URI.create("http://" + adminAddress + "/health/ready")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(
                    URI.create("http://" + adminAddress + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(PrometheusText.parse(metrics.body()).sum("shardvault_stash_entries", "service", "stash"))
                    .contains(0.0);
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertThat(process.exitValue()).as("exit after SIGTERM").isIn(0, 143);
    }
}
