package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import io.shardvault.coordinator.certs.CertsFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog's Raft traffic over mutual TLS (issue #21): a client with a certificate of the cluster
 * CA commits; one with another CA's certificate, or without TLS, never gets through, and nothing it
 * asked for is committed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CatalogTlsTest {
    @TempDir
    Path dir;

    private Settings peer(String peers, Path dataDir, TlsSettings tls) {
        Map<String, Object> m = CatalogTestPeers.settings("p1", peers, dataDir, 1000);
        if (tls != null) {
            m.put("tls.certificate", tls.certificate().toString());
            m.put("tls.key", tls.key().toString());
            m.put("tls.ca", tls.ca().toString());
        }
        return Settings.of(m);
    }

    @Test
    void onlyClientsWithACertificateOfTheClusterCaReachTheCatalog() throws Exception {
        TlsSettings c1 = CertsFixture.issue(dir.resolve("certs"), "c1", "127.0.0.1");
        TlsSettings other = CertsFixture.issue(dir.resolve("certs"), "c2", "127.0.0.1");
        TlsSettings foreign = CertsFixture.issue(dir.resolve("other-ca"), "intruder", "127.0.0.1");
        String peers = CatalogTestPeers.peersSpec(FreePorts.loopback(1));
        try (CatalogServer server = RatisCatalogServer.start(CatalogConfig.from(peer(peers, dir.resolve("c1"), c1)),
                new SimpleMeterRegistry());
             Catalog member = RatisCatalogServer.connect(CatalogConfig.from(peer(peers, dir.resolve("m"), other)),
                     new SimpleMeterRegistry());
             Catalog intruder = RatisCatalogServer.connect(CatalogConfig.from(peer(peers, dir.resolve("i"),
                     new TlsSettings(foreign.certificate(), foreign.key(), c1.ca()))), new SimpleMeterRegistry());
             Catalog plaintext = RatisCatalogServer.connect(CatalogConfig.from(peer(peers, dir.resolve("p"), null)),
                     new SimpleMeterRegistry())) {
            assertThat(server.peerId()).isEqualTo("p1");
            member.createBucket("member", "AK", false).get(60, TimeUnit.SECONDS);

            for (CompletableFuture<?> refused : List.of(intruder.createBucket("intruder", "AK", false),
                    plaintext.createBucket("plaintext", "AK", false))) {
                assertThatThrownBy(() -> refused.get(5, TimeUnit.SECONDS)).isNotNull();
            }
            assertThat(member.listBuckets().get(30, TimeUnit.SECONDS)).extracting(b -> b.name())
                    .containsExactly("member");
        }
    }
}
