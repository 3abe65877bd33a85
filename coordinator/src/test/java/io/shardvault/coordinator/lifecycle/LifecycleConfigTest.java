package io.shardvault.coordinator.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expirer's settings: declared by the conventions, resolved with their defaults, bounded. */
class LifecycleConfigTest {
    @Test
    void settingsFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(LifecycleConfigKeys.class);
        LifecycleConfig c = LifecycleConfig.from(Settings.of(Map.of("lifecycle.interval", "10m",
                "lifecycle.rate.deletesPerSecond", "7", "lifecycle.batch", "1000")));
        assertThat(c.interval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(c.deletesPerSecond()).isEqualTo(7);
        assertThat(c.batch()).isEqualTo(1000);
        assertThat(LifecycleConfig.defaults()).isEqualTo(new LifecycleConfig(true, Duration.ofHours(1), 200, 100));
        assertThatThrownBy(() -> LifecycleConfig.from(Settings.of(Map.of("lifecycle.batch", "1001"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("lifecycle.batch");
    }
}
