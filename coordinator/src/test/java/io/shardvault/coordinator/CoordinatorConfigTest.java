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
        assertThat(c.vault().layout().stripeBytes()).isEqualTo(1 << 20);
        assertThat(c.vault().pod(19).getHostString()).isEqualTo("10.0.0.20");
        assertThat(c.stashServers()).hasSize(2);
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
}
