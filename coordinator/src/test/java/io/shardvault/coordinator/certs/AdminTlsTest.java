package io.shardvault.coordinator.certs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.admin.AdminServer;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.metrics.ProcessMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port over HTTPS with a certificate of the cluster CA made by {@code shardvault certs},
 * and a bearer token, as Prometheus scrapes it: a client trusting the cluster CA with the token gets
 * the metrics; without the token it gets 401; a client trusting another CA, or speaking plain HTTP,
 * gets nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminTlsTest {
    private static final String TOKEN = "admin-token-for-the-scraper";

    @TempDir
    Path dir;
    private ProcessMetrics metrics;
    private AdminServer admin;
    private TlsSettings service;

    @BeforeEach
    void start() throws Exception {
        service = CertsFixture.issue(dir.resolve("certs"), "pod-host", "127.0.0.1,localhost");
        Path token = dir.resolve("admin.token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        metrics = ProcessMetrics.create("test", "admin-tls-test");
        admin = AdminServer.start(AdminConfig.from(Settings.of(Map.of(
                "tls.certificate", service.certificate().toString(), "tls.key", service.key().toString(),
                "tls.ca", service.ca().toString(), "admin.tls", true, "admin.tokenFile", token.toString()))),
                metrics, Readiness::ready);
    }

    @AfterEach
    void stop() {
        admin.close();
        metrics.close();
    }

    @Test
    void aClientTrustingTheClusterCaWithTheTokenIsServed() throws Exception {
        HttpClient client = client(trusting(service.ca()));
        assertThat(client.send(request("https", "Bearer " + TOKEN), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(200);
        HttpResponse<String> noToken = client.send(request("https", null), HttpResponse.BodyHandlers.ofString());
        assertThat(noToken.statusCode()).isEqualTo(401);
        assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                v -> assertThat(v).startsWith("Bearer"));
        assertThat(client.send(request("https", "Bearer not-it"), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(401);
    }

    @Test
    void plainHttpOrAnotherCaGetsNothing() throws Exception {
        HttpClient plain = client(null);
        assertThatThrownBy(() -> plain.send(request("http", "Bearer " + TOKEN), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
        TlsSettings foreign = CertsFixture.issue(dir.resolve("other-ca"), "pod-host", "127.0.0.1");
        HttpClient stranger = client(trusting(foreign.ca()));
        assertThatThrownBy(() -> stranger.send(request("https", "Bearer " + TOKEN),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class)
                .hasStackTraceContaining("PKIX");
    }

    private HttpRequest request(String scheme, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:"
                + admin.localAddress().getPort() + "/metrics")).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    private static HttpClient client(SSLContext ssl) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (ssl != null) {
            b.sslContext(ssl);
        }
        return b.build();
    }

    private static SSLContext trusting(Path caPem) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            trust.setCertificateEntry("cluster-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        return ssl;
    }
}
