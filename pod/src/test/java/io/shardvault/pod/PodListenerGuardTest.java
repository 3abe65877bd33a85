package io.shardvault.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pod listening beyond loopback needs TLS (issue #21); the cluster's tls.* settings are that TLS. */
class PodListenerGuardTest {
    @TempDir
    Path dir;

    private Map<String, String> exposed() {
        Map<String, String> s = new HashMap<>();
        s.put("pod.bind", "0.0.0.0:7500");
        s.put("pod.stateDir", dir.resolve("state").toString());
        s.put("pod.tomes", dir.resolve("t0").toString());
        return s;
    }

    @Test
    void anExposedPodWithoutTlsStopsTheStart() {
        assertThatThrownBy(() -> PodConfig.from(Settings.of(exposed()))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pod.bind");
    }

    @Test
    void anExposedPodWithTheClusterTlsSettingsStarts() throws Exception {
        Map<String, String> s = exposed();
        for (String key : new String[] {"certificate", "key", "ca"}) {
            Path file = Files.writeString(dir.resolve(key + ".pem"), "pem");
            s.put("tls." + key, file.toString());
        }
        assertThat(PodConfig.from(Settings.of(s)).bind().getPort()).isEqualTo(7500);
    }
}
