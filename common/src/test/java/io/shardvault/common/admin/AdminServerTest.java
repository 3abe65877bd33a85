package io.shardvault.common.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.metrics.ProcessMetrics;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminServerTest {
    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicReference<Readiness> readiness = new AtomicReference<>(Readiness.notReady("recovering"));
    private ProcessMetrics metrics;
    private AdminServer admin;

    @BeforeEach
    void start() throws Exception {
        metrics = ProcessMetrics.create("test", "admin-test");
        admin = AdminServer.start(AdminConfig.defaults(), metrics, readiness::get);
    }

    @AfterEach
    void stop() {
        admin.close();
        metrics.close();
    }

    @Test
    void listensOnLoopbackWithAnEphemeralPortByDefault() {
        assertThat(admin.localAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(admin.localAddress().getPort()).isPositive();
    }

    @Test
    void liveIsAlways200() throws Exception {
        HttpResponse<String> live = get("/health/live");
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("live\n");
    }

    @Test
    void readyFollowsTheReadinessCheckWithTheReason() throws Exception {
        HttpResponse<String> notReady = get("/health/ready");
        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(notReady.body()).isEqualTo("recovering\n");
        readiness.set(Readiness.ready());
        assertThat(get("/health/ready").statusCode()).isEqualTo(200);
    }

    @Test
    void aFailingReadinessCheckIs503NotAnError() throws Exception {
        AdminServer broken = AdminServer.start(AdminConfig.defaults(), metrics, () -> {
            throw new IllegalStateException("boom");
        });
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri(broken.localAddress(), "/health/ready"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).contains("boom");
        } finally {
            broken.close();
        }
    }

    @Test
    void metricsIsThePrometheusScrapeAndMoves() throws Exception {
        Counter counter = Counter.builder("shardvault.admin.probe").register(metrics.registry());
        HttpResponse<String> first = get("/metrics");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(v -> v.startsWith("text/plain"));
        assertThat(PrometheusText.parse(first.body()).sum("shardvault_admin_probe_total")).contains(0.0);
        counter.increment(3);
        assertThat(PrometheusText.parse(get("/metrics").body()).sum("shardvault_admin_probe_total")).contains(3.0);
    }

    @Test
    void unknownPathsAre404AndOtherMethods405() throws Exception {
        assertThat(get("/nope").statusCode()).isEqualTo(404);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(admin.localAddress(), "/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
        HttpResponse<String> head = http.send(HttpRequest.newBuilder(uri(admin.localAddress(), "/health/live"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void configKeysFollowThePatternAndBindIsValidated() throws Exception {
        ConfigKeysConventions.assertWellFormed(AdminConfigKeys.class);
        AdminConfig config = AdminConfig.from(Settings.load(java.util.Optional.empty(),
                List.of("admin.bind=127.0.0.1:9470", "admin.threads=3")));
        assertThat(config.bind()).isEqualTo(new InetSocketAddress("127.0.0.1", 9470));
        assertThat(config.threads()).isEqualTo(3);
        assertThatThrownBy(() -> AdminConfig.from(Settings.load(java.util.Optional.empty(),
                List.of("admin.bind=nocolon")))).isInstanceOf(ConfigException.class).hasMessageContaining("admin.bind");
    }

    @Test
    void aTokenIsRequiredOnEveryPathWhenConfigured() throws Exception {
        Path tokenFile = ownerOnlyFile("token", "s3cr3t-admin-token\n");
        AdminServer guarded = AdminServer.start(AdminConfig.from(Settings.of(Map.of(
                "admin.tokenFile", tokenFile.toString()))), metrics, Readiness::ready);
        try {
            for (String path : List.of("/metrics", "/health/live", "/health/ready", "/nope")) {
                HttpResponse<String> none = send(guarded, path, null);
                assertThat(none.statusCode()).as(path).isEqualTo(401);
                assertThat(none.headers().firstValue("WWW-Authenticate")).as(path)
                        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
                assertThat(send(guarded, path, "Bearer wrong-token").statusCode()).as(path).isEqualTo(401);
            }
            // Another scheme, a prefix of the token and the token with a suffix are all wrong.
            assertThat(send(guarded, "/metrics", "Basic s3cr3t-admin-token").statusCode()).isEqualTo(401);
            assertThat(send(guarded, "/metrics", "Bearer s3cr3t").statusCode()).isEqualTo(401);
            assertThat(send(guarded, "/metrics", "Bearer s3cr3t-admin-tokenX").statusCode()).isEqualTo(401);
            HttpResponse<String> right = send(guarded, "/metrics", "Bearer s3cr3t-admin-token");
            assertThat(right.statusCode()).isEqualTo(200);
            assertThat(send(guarded, "/health/ready", "bearer s3cr3t-admin-token").statusCode()).isEqualTo(200);
        } finally {
            guarded.close();
        }
    }

    @Test
    void aTokenFileOpenToOthersOrATokenOnTheCommandLineStopsTheStart() throws Exception {
        Path open = ownerOnlyFile("open", "t0ken");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(Map.of("admin.tokenFile", open.toString()))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("admin.tokenFile = " + open)
                .hasMessageContaining("chmod 600");
        assertThatThrownBy(() -> AdminConfig.from(Settings.load(Optional.empty(), List.of("admin.token=t0ken"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("admin.token is set on the command line")
                .hasMessageNotContaining("t0ken");
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(Map.of("admin.tokenFile", ownerOnlyFile("e", "\n")
                .toString())))).isInstanceOf(ConfigException.class).hasMessageContaining("admin.tokenFile");
        // From the environment, through the config file: accepted, and never shown.
        AdminConfig fromFile = AdminConfig.from(Settings.of(Map.of("admin.token", "t0ken")));
        assertThat(fromFile.token()).isPresent();
        assertThat(fromFile.toString()).doesNotContain("t0ken");
    }

    @Test
    void beyondLoopbackTheAdminPortNeedsTlsAndAToken() throws Exception {
        Path token = ownerOnlyFile("token", "t0ken");
        Map<String, String> tls = new java.util.HashMap<>();
        for (String f : new String[] {"s.crt", "s.key", "ca.crt"}) {
            Files.writeString(dir.resolve(f), "pem");
        }
        tls.put("tls.certificate", dir.resolve("s.crt").toString());
        tls.put("tls.key", dir.resolve("s.key").toString());
        tls.put("tls.ca", dir.resolve("ca.crt").toString());
        tls.put("admin.bind", "0.0.0.0:9480");
        // Only resolving the settings: nothing listens beyond loopback in a test.
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(tls).with(Map.of("admin.tls", true))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("admin.bind = 0.0.0.0:9480")
                .hasMessageContaining("admin.tokenFile").hasMessageContaining("security.insecure = true");
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(tls).with(Map.of("admin.tokenFile", token.toString()))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("admin.bind = 0.0.0.0:9480")
                .hasMessageContaining("admin.tls");
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(Map.of("admin.tls", true))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tls.certificate");
        AdminConfig both = AdminConfig.from(Settings.of(tls).with(Map.of("admin.tls", true,
                "admin.tokenFile", token.toString())));
        assertThat(both.bind().getAddress().isAnyLocalAddress()).isTrue();
        assertThat(both.tls()).isPresent();
    }

    private Path ownerOnlyFile(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private HttpResponse<String> send(AdminServer server, String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(server.localAddress(), path))
                .timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(admin.localAddress(), path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(InetSocketAddress address, String path) {
        return URI.create("http://" + address.getHostString() + ":" + address.getPort() + path);
    }
}
