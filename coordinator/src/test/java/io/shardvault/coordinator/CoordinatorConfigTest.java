package io.shardvault.coordinator;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import io.shardvault.coordinator.data.DataPathConfig;
import io.shardvault.coordinator.data.DataPathConfigKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class CoordinatorConfigTest {
    @Test
    void keysFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(CoordinatorConfigKeys.class);
        ConfigKeysConventions.assertWellFormed(DataPathConfigKeys.class);
        ConfigKeysConventions.assertWellFormed(io.shardvault.coordinator.admin.CoordinatorAdminConfigKeys.class);
        ConfigKeysConventions.assertWellFormed(io.shardvault.coordinator.repair.ScrubFindingsConfigKeys.class);
    }

    @Test
    void everyKeyTheProcessReadsIsKnownOnce() {
        List<String> names = new ArrayList<>();
        CoordinatorMain.allKeys().forEach(k -> names.add(k.name()));
        assertThat(names).doesNotHaveDuplicates().contains("stash.threshold", "coordinator.vault.pods",
                "catalog.peers", "s3.port", "erasure.codec", "rpc.client.requestTimeout");
    }

    @Test
    void parsesTheVaultAndTheBootstrapKey() {
        StringBuilder pods = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            pods.append(i == 0 ? "" : ",").append("10.0.0.").append(i + 1).append(":7500");
        }
        CoordinatorConfig c = CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.pods", pods.toString(),
                "coordinator.stash.servers", "10.0.1.1:7400, 10.0.1.2:7400", "coordinator.accessKey", "AK",
                "coordinator.secretKey", "SK")));
        ClusterMapConfig map = c.map().orElseThrow();
        assertThat(map.vault().layout().stripeBytes()).isEqualTo(1 << 20);
        assertThat(map.vault().pod(19).getHostString()).isEqualTo("10.0.0.20");
        assertThat(map.stashServers()).hasSize(2);
        assertThat(c.bootstrapKey()).hasValueSatisfying(k -> assertThat(k.secretKey()).isEqualTo("SK"));
        assertThat(DataPathConfig.defaults().rpcTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void rejectsAVaultWithTheWrongNumberOfPodsAndHalfAKey() {
        assertThatThrownBy(() -> CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.pods", "h:1,h:2"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("2 pods");
        assertThatThrownBy(() -> CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.layout", "2+1",
                "coordinator.vault.pods", "h:1,h:2,h:3", "coordinator.accessKey", "AK"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("go together");
        assertThatThrownBy(() -> CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.layout", "2+1",
                "coordinator.vault.pods", "h:1,h:2,h:3", "coordinator.vault.chunkBytes", "1000"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("multiple of 16");
    }

    @Test
    void withoutPodsTheMapIsTheCatalogsAndAHalfMapIsRefused() {
        CoordinatorConfig c = CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.id", 3,
                "catalog.peers", "c1=127.0.0.1:7300")));
        assertThat(c.map()).isEmpty();
        assertThat(c.vaultId()).isEqualTo(3);
        assertThatThrownBy(() -> CoordinatorConfig.from(Settings.of(Map.of("coordinator.vault.layout", "2+1",
                "coordinator.stash.servers", "h:1"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("coordinator.vault.layout, coordinator.stash.servers set without coordinator.vault.pods");
    }

    @Test
    void parsesTheShippedClusterMapAndRefusesAnyOtherKey() throws Exception {
        String shipped = java.nio.file.Files.readString(java.nio.file.Path.of("../dist/src/conf/cluster-map.conf"));
        ClusterMapConfig map = ClusterMapConfig.parse(shipped, "cluster-map.conf");
        assertThat(map.vault().layout().n()).isEqualTo(20);
        assertThat(map.vaults().get(0).pods()).hasSize(20);
        assertThat(map.stashes()).extracting(io.shardvault.coordinator.catalog.StashInfo::stashId)
                .containsExactly("stash-0", "stash-1");
        assertThat(map.catalogPeers()).extracting(io.shardvault.coordinator.catalog.CatalogConfig.Peer::id)
                .containsExactly("c1");
        assertThatThrownBy(() -> ClusterMapConfig.parse(shipped + "\ns3.port = 9000\n", "m.conf"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("s3.port");
        assertThatThrownBy(() -> ClusterMapConfig.parse("coordinator.vault.layout = \"2+1\"", "m.conf"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("names no pods");
    }
}
