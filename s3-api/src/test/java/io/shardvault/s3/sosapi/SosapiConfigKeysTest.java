package io.shardvault.s3.sosapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SosapiConfigKeysTest {
    @Test
    void keysFollowTheConvention() throws Exception {
        ConfigKeysConventions.assertWellFormed(SosapiConfigKeys.class);
    }

    @Test
    void listingClientsMatchTheVeeamProductTokenByDefault() {
        SosapiConfig d = SosapiConfig.defaults();
        assertThat(d.listsFor("APN/1.0 Veeam/1.0 Backup/12.0")).isTrue();
        assertThat(d.listsFor("apn/1.0 veeam/1.0 backup/10.0 aws-sdk-java/2.0")).isTrue();
        assertThat(d.listsFor("Veeam/1.0")).isTrue();
        assertThat(d.listsFor("aws-cli/2.15 Python/3.12")).isFalse();
        assertThat(d.listsFor("NotVeeam/1.0 rclone/v1.66")).isFalse();
        assertThat(d.listsFor(null)).isFalse();
        assertThat(SosapiConfig.DISABLED.listsFor("APN/1.0 Veeam/1.0")).isFalse();
        SosapiConfig custom = SosapiConfig.from(Settings.of(Map.of("s3.sosapi.listingClients", "^my-backup/")));
        assertThat(custom.listsFor("My-Backup/3 sdk")).isTrue();
        assertThat(custom.listsFor("APN/1.0 Veeam/1.0")).isFalse();
    }

    @Test
    void configResolvesFromSettings() {
        SosapiConfig d = SosapiConfig.defaults();
        assertThat(d.enabled()).isTrue();
        assertThat(d.kbBlockSize()).isEqualTo(1024);
        assertThat(d.s3MultiObjectDeleteLimit()).isEqualTo(1000);
        SosapiConfig c = SosapiConfig.from(Settings.of(Map.of("s3.sosapi.kbBlockSize", "4096",
                "s3.sosapi.s3ConcurrentTaskLimit", 16, "s3.sosapi.modelName", "acme")));
        assertThat(c.kbBlockSize()).isEqualTo(4096);
        assertThat(c.s3ConcurrentTaskLimit()).isEqualTo(16);
        assertThat(c.modelName()).isEqualTo("acme");
        assertThatThrownBy(() -> SosapiConfig.from(Settings.of(Map.of("s3.sosapi.kbBlockSize", "2048"))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> SosapiConfig.from(Settings.of(Map.of("s3.sosapi.s3MultiObjectDeleteLimit", 1001))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> SosapiConfig.from(Settings.of(Map.of("s3.sosapi.listingClients", "(Veeam"))))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new SosapiConfig(true, SosapiConfig.VEEAM_CLIENTS, "x", true, true, 100, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
