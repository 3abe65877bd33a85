package io.shardvault.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.testing.ConfigKeysConventions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsSettingsTest {
    @TempDir
    Path dir;

    @Test
    void keysFollowTheConventions() throws ReflectiveOperationException {
        ConfigKeysConventions.assertWellFormed(TlsConfigKeys.class);
    }

    @Test
    void noneSetIsPlaintext() {
        assertThat(TlsSettings.from(Settings.empty())).isEmpty();
    }

    @Test
    void allThreeSetAndReadableIsTls() throws Exception {
        Map<String, String> files = files();
        assertThat(TlsSettings.from(Settings.of(files))).contains(new TlsSettings(dir.resolve("s.crt"),
                dir.resolve("s.key"), dir.resolve("ca.crt")));
    }

    @Test
    void someSetStopsTheStartNamingWhatIsMissing() throws Exception {
        Map<String, String> files = files();
        assertThatThrownBy(() -> TlsSettings.from(Settings.of(Map.of("tls.certificate", files.get("tls.certificate")))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tls.key").hasMessageContaining("tls.ca");
    }

    @Test
    void aMissingFileStopsTheStartNamingItsKey() throws Exception {
        Settings s = Settings.of(files()).with(Map.of("tls.ca", dir.resolve("absent.crt").toString()));
        assertThatThrownBy(() -> TlsSettings.from(s)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tls.ca = " + dir.resolve("absent.crt"));
    }

    private Map<String, String> files() throws Exception {
        for (String f : new String[] {"s.crt", "s.key", "ca.crt"}) {
            Files.writeString(dir.resolve(f), "pem");
        }
        return Map.of("tls.certificate", dir.resolve("s.crt").toString(), "tls.key", dir.resolve("s.key").toString(),
                "tls.ca", dir.resolve("ca.crt").toString());
    }
}
