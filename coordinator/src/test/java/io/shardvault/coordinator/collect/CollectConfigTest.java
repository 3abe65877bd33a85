package io.shardvault.coordinator.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The collector's settings: declared by the conventions, resolved with their defaults. */
class CollectConfigTest {
    @Test
    void settingsFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(CollectConfigKeys.class);
        CollectConfig c = CollectConfig.from(Settings.of(Map.of("collect.grace", "2h", "collect.rate.filesPerSecond",
                "7")));
        assertThat(c.grace()).isEqualTo(Duration.ofHours(2));
        assertThat(c.filesPerSecond()).isEqualTo(7);
        assertThat(CollectConfig.defaults().grace()).isEqualTo(Duration.ofHours(6));
        assertThat(CollectConfig.defaults().enabled()).isTrue();
    }
}
