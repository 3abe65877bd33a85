package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class CatalogConfigTest {
    private static final Settings INSECURE = Settings.of(Map.of("security.insecure", true));

    @TempDir
    Path dir;

    @Test
    void aCatalogWithoutAClusterKeyFileIsRefusedUnlessInsecure() throws Exception {
        assertThatThrownBy(() -> CatalogConfig.from(Settings.empty())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.secrets.keyFile is not set").hasMessageContaining("security.insecure");
        assertThat(CatalogConfig.from(INSECURE).secrets()).isEmpty();

        Path keys = SecretCipher.createKeyFile(dir.resolve("keys"), "k1");
        CatalogConfig sealed = CatalogConfig.from(Settings.of(Map.of("catalog.secrets.keyFile", keys.toString())));
        assertThat(sealed.secrets()).hasValueSatisfying(c -> assertThat(c.newestKeyId()).isEqualTo("k1"));

        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(Map.of("catalog.secrets.keyFile", keys.toString()))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("catalog.secrets.keyFile")
                .hasMessageContaining("chmod 600");
    }
    @Test
    void keysFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(CatalogConfigKeys.class);
    }

    @Test
    void parsesPeersAndRejectsBadOnes() {
        Map<String, Object> threeHosts = Map.of("catalog.peerId", "b",
                "catalog.peers", "a=10.0.0.1:9860, b=10.0.0.2:9860,c=10.0.0.3:9861");
        // Raft without TLS beyond loopback only when the operator accepts it (issue #21).
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(threeHosts)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.peers (this peer, b) = 10.0.0.2:9860");
        CatalogConfig c = CatalogConfig.from(Settings.of(threeHosts).with(Map.of("security.insecure", true)));
        assertThat(c.peers()).hasSize(3);
        assertThat(c.self().host()).isEqualTo("10.0.0.2");
        assertThat(CatalogConfig.from(INSECURE).peers()).singleElement().extracting(CatalogConfig.Peer::port).isEqualTo(9860);
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(Map.of("catalog.peerId", "z"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("z");
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(Map.of("catalog.peers", "c1=host"))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(Map.of("catalog.peers", "c1=h:1,c1=h:2"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("duplicate");
    }

    @Test
    void storeMemoryDefaultsAndOverrides() {
        CatalogStoreOptions defaults = CatalogConfig.from(INSECURE).store();
        assertThat(defaults.memtableBytes()).isEqualTo(64L << 20);
        assertThat(defaults.blockCacheBytes()).isEqualTo(32L << 20);
        assertThat(defaults.tableMemtableBytes()).isEqualTo(16L << 20);
        CatalogStoreOptions set = CatalogConfig.from(Settings.of(Map.of("catalog.rocksdb.memtableBytes", "8MiB",
                "catalog.rocksdb.blockCacheBytes", "4MiB")).with(Map.of("security.insecure", true))).store();
        assertThat(set).isEqualTo(new CatalogStoreOptions(8L << 20, 4L << 20));
        assertThatThrownBy(() -> CatalogConfig.from(Settings.of(Map.of("catalog.rocksdb.memtableBytes", "1KiB"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("catalog.rocksdb.memtableBytes");
    }
}
