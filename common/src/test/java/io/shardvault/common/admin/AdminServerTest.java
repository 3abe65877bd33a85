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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminServerTest {
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

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(admin.localAddress(), path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(InetSocketAddress address, String path) {
        return URI.create("http://" + address.getHostString() + ":" + address.getPort() + path);
    }
}
