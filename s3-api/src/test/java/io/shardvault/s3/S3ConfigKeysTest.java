package io.shardvault.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class S3ConfigKeysTest {
    @Test
    void keysFollowTheConvention() throws Exception {
        ConfigKeysConventions.assertWellFormed(S3ConfigKeys.class);
    }

    @Test
    void configResolvesFromSettings() {
        S3ServerConfig c = S3ServerConfig.from(Settings.of(Map.of("s3.port", 0, "s3.baseDomains", "S3.Example.com, b.io",
                "s3.maxClockSkew", "5m")));
        assertThat(c.port()).isZero();
        assertThat(c.baseDomains()).isEqualTo(List.of("s3.example.com", "b.io"));
        assertThat(c.maxClockSkew().toMinutes()).isEqualTo(5);
        assertThat(c.tlsEnabled()).isFalse();
        assertThat(S3ServerConfig.defaults().maxClockSkew().toMinutes()).isEqualTo(15);
        assertThat(S3ServerConfig.defaults().sigV2Enabled()).isTrue();
        assertThat(S3ServerConfig.from(Settings.of(Map.of("s3.sigv2.enabled", "false"))).sigV2Enabled()).isFalse();
        assertThatThrownBy(() -> S3ServerConfig.defaults().withBind("x", 70000))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void etagsOfMultipartUploads() {
        // md5("") = d41d8cd98f00b204e9800998ecf8427e; md5 of its 16 bytes twice, then -2.
        assertThat(Etags.multipart(List.of("d41d8cd98f00b204e9800998ecf8427e", "\"d41d8cd98f00b204e9800998ecf8427e\"")))
                .endsWith("-2").hasSize(34);
        assertThat(Etags.matches("\"abc\", \"def\"", "def")).isTrue();
        assertThat(Etags.matches("*", "x")).isTrue();
        assertThat(Etags.matches("W/\"abc\"", "abc")).isTrue();
        assertThat(Etags.matches("\"abc\"", "abd")).isFalse();
    }
}
