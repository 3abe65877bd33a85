package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErasureConfigTest {

    @Test
    void defaultsAreAutoNotRequired() {
        ErasureConfig config = ErasureConfig.defaults();
        assertThat(config.codec()).isEqualTo(ErasureConfig.Engine.AUTO);
        assertThat(config.nativeRequired()).isFalse();
        assertThat(config.decodeCacheEntries()).isEqualTo(1024);
        assertThat(ErasureConfigKeys.all()).hasSize(3);
    }

    @Test
    void readsSettings() {
        ErasureConfig config = ErasureConfig.from(Settings.of(Map.of("erasure.codec", "native",
                "erasure.native.required", true, "erasure.decodeCacheEntries", 10)));
        assertThat(config).isEqualTo(new ErasureConfig(ErasureConfig.Engine.NATIVE, true, 10));
        assertThatThrownBy(() -> ErasureConfig.from(Settings.of(Map.of("erasure.codec", "fast"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("erasure.codec");
    }

    @Test
    void requiredNativeContradictsForcedJava() {
        assertThatThrownBy(() -> ErasureConfig.from(Settings.of(Map.of("erasure.codec", "java",
                "erasure.native.required", true)))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("contradicts");
    }
}
