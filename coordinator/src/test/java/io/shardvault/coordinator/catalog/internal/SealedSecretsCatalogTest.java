package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.SecretCipher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3 secrets in the catalog are sealed under the cluster key (issue #21): no file of the catalog's data
 * directory (RocksDB, the Raft log, snapshots) holds a secret's bytes, the coordinator still reads each
 * secret, and a rotation seals every stored secret (plaintext ones from before encryption included) under
 * the newest key, after which the older key can leave the key file.
 */
@Timeout(180)
class SealedSecretsCatalogTest {
    @TempDir
    Path dir;

    private final int port = FreePorts.loopback();

    private CatalogServer start(Path dataDir, Path keyFile) throws IOException {
        Map<String, Object> m = new HashMap<>(Map.of("catalog.peerId", "c1", "catalog.peers", "c1=127.0.0.1:" + port,
                "catalog.dataDir", dataDir.toString(), "catalog.election.timeoutMin", "300ms",
                "catalog.election.timeoutMax", "600ms", "catalog.snapshot.everyEntries", 16));
        if (keyFile == null) {
            m.put("security.insecure", true);
        } else {
            m.put("catalog.secrets.keyFile", keyFile.toString());
        }
        return RatisCatalogServer.start(CatalogConfig.from(Settings.of(m)), new SimpleMeterRegistry());
    }

    private Path keyFile(String name, String... lines) throws IOException {
        Path file = SecretCipher.createKeyFile(dir.resolve(name), "unused");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** Enough entries beside the keys for a snapshot, so that RocksDB checkpoints hold them too. */
    private static List<AccessKey> createKeys(Catalog catalog, int n) throws Exception {
        catalog.createAccount("sealed").get(60, TimeUnit.SECONDS);
        List<AccessKey> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(catalog.createAccessKey("sealed", false).get(60, TimeUnit.SECONDS));
        }
        return keys;
    }

    /** The files under {@code root} that hold any of the secrets' bytes. */
    private static List<String> filesHolding(Path root, List<AccessKey> keys) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (AccessKey k : keys) {
                    if (bytes.contains(k.secretKey())) {
                        found.add(root.relativize(f) + " holds the secret of " + k.accessKeyId());
                    }
                }
            }
        }
        return found;
    }

    @Test
    void noFileOfTheCatalogHoldsASecretWhileTheCatalogStillReadsIt() throws Exception {
        Path keys = keyFile("keys", SecretCipher.newKeyLine("k1"));
        List<AccessKey> sealed;
        try (CatalogServer server = start(dir.resolve("sealed"), keys)) {
            sealed = createKeys(server.catalog(), 20);
            for (AccessKey k : sealed) {
                assertThat(server.catalog().lookupAccessKey(k.accessKeyId()).get(30, TimeUnit.SECONDS).secretKey())
                        .isEqualTo(k.secretKey());
            }
        }
        assertThat(filesHolding(dir.resolve("sealed"), sealed)).isEmpty();

        // The same grep finds them in a catalog that stores them as they are (security.insecure): it can fail.
        List<AccessKey> plain;
        try (CatalogServer server = start(dir.resolve("plain"), null)) {
            plain = createKeys(server.catalog(), 20);
        }
        assertThat(filesHolding(dir.resolve("plain"), plain)).isNotEmpty();
    }

    @Test
    void rotationSealsEverySecretUnderTheNewestKeySoTheOldOneCanGo() throws Exception {
        String k1 = SecretCipher.newKeyLine("k1");
        String k2 = SecretCipher.newKeyLine("k2");
        Path data = dir.resolve("catalog");
        AccessKey before;
        AccessKey underK1;
        try (CatalogServer server = start(data, null)) {
            before = createKeys(server.catalog(), 1).get(0);
        }
        try (CatalogServer server = start(data, keyFile("k1", k1))) {
            Catalog catalog = server.catalog();
            assertThat(catalog.lookupAccessKey(before.accessKeyId()).get(30, TimeUnit.SECONDS).secretKey())
                    .as("a plaintext secret from before encryption reads as it is").isEqualTo(before.secretKey());
            underK1 = catalog.createAccessKey("sealed", false).get(60, TimeUnit.SECONDS);
        }
        try (CatalogServer server = start(data, keyFile("k1k2", k1, k2))) {
            Catalog catalog = server.catalog();
            assertThat(catalog.resealSecrets().get(60, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(catalog.resealSecrets().get(60, TimeUnit.SECONDS)).as("idempotent").isZero();
        }
        try (CatalogServer server = start(data, keyFile("k2", k2))) {
            Catalog catalog = server.catalog();
            for (AccessKey k : List.of(before, underK1)) {
                assertThat(catalog.lookupAccessKey(k.accessKeyId()).get(30, TimeUnit.SECONDS).secretKey())
                        .as("%s opens with k2 alone", k.accessKeyId()).isEqualTo(k.secretKey());
            }
        }
    }
}
