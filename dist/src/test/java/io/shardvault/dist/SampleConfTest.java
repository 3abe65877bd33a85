package io.shardvault.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.ConfigKey;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.ClusterMapConfig;
import io.shardvault.coordinator.CoordinatorConfig;
import io.shardvault.coordinator.CoordinatorMain;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogConfigKeys;
import io.shardvault.pod.PodConfigKeys;
import io.shardvault.pod.PodMain;
import io.shardvault.stash.StashConfig;
import io.shardvault.stash.StashMain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's sample confs (src/conf, the tarball's conf/) through the services' own config classes: every
 * key one the service declares, every value valid, and every key explained by a comment. A typo in a sample
 * fails the build here, not on an operator's host. (ReleaseTarballIT starts the services from them.)
 */
class SampleConfTest {
    private static final Path CONF = Path.of("src", "conf");
    /** A setting's line: a dotted key, then = or {. */
    private static final Pattern KEY_LINE = Pattern.compile("^([a-zA-Z][\\w.]*)\\s*=");

    @Test
    void theCoordinatorSampleHoldsOnlyRealKeysWithValidValuesAndTakesTheMapFromTheCatalog() {
        Settings settings = checked("coordinator.conf", CoordinatorMain.allKeys());
        // No map in the settings: the coordinator waits for the one shardvault init registers.
        assertThat(CoordinatorConfig.from(settings).map()).isEmpty();
        assertThat(settings.isSet("catalog.peers")).isTrue();
    }

    @Test
    void thePodSampleHoldsOnlyRealKeysWithValidValues() {
        Settings settings = checked("pod.conf", PodMain.keys());
        // PodConfig.from would read the tls.* files, which exist only on a host.
        assertThat(settings.get(PodConfigKeys.NAME)).isEqualTo("pod-0");
    }

    @Test
    void theStashSampleHoldsOnlyRealKeysWithValidValues() {
        Settings settings = checked("stash.conf", StashMain.keys());
        assertThat(StashConfig.from(settings).dataDir()).isEqualTo(Path.of("/var/lib/shardvault/stash"));
    }

    @Test
    void theClusterMapIsWhatInitParsesWithTheCoordinatorsCatalogPeers() throws IOException {
        checked("cluster-map.conf", CoordinatorMain.allKeys());
        ClusterMapConfig map = ClusterMapConfig.parse(Files.readString(CONF.resolve("cluster-map.conf")),
                "cluster-map.conf");
        assertThat(map.vault().pods()).hasSize(20);
        assertThat(map.stashServers()).hasSize(2);
        // The two lists of catalog peers are kept in step.
        assertThat(map.catalogPeers()).isEqualTo(CatalogConfig.parsePeers(
                checked("coordinator.conf", CoordinatorMain.allKeys()).get(CatalogConfigKeys.PEERS)));
    }

    @Test
    void aMisspeltKeyInASampleFailsTheCheck(@TempDir Path dir) throws IOException {
        // The check above can fail: the stash sample with one key misspelt.
        Path bad = dir.resolve("stash.conf");
        Files.writeString(bad, Files.readString(CONF.resolve("stash.conf")).replace("stash.capacityBytes",
                "stash.capacityByte"));
        assertThatThrownBy(() -> check(bad, StashMain.keys())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("stash.capacityByte");
    }

    @Test
    void everySampleKeyIsExplainedByACommentAndNoneHoldsASecret() throws IOException {
        List<String> secrets = new ArrayList<>();
        for (ConfigKey<?> k : CoordinatorMain.allKeys()) {
            if (k.secret()) {
                secrets.add(k.name());
            }
        }
        try (var files = Files.list(CONF)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".conf")).toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = KEY_LINE.matcher(lines.get(i));
                    if (!m.find()) {
                        continue;
                    }
                    assertThat(secrets).as("%s line %d sets a secret: secrets come from a file or the environment",
                            file, i + 1).doesNotContain(m.group(1));
                    // The block of lines this key is in (up to the blank line above it) opens with a comment.
                    int j = i;
                    while (j > 0 && !lines.get(j - 1).isBlank()) {
                        j--;
                    }
                    assertThat(lines.get(j)).as("%s line %d (%s): no comment says what it means", file, i + 1,
                            m.group(1)).startsWith("#");
                }
            }
        }
    }

    private static Settings checked(String name, List<ConfigKey<?>> keys) {
        return check(CONF.resolve(name), keys);
    }

    /** Loads the file as the service does and reads every key it sets, so a value out of range fails too. */
    private static Settings check(Path file, List<ConfigKey<?>> keys) {
        Settings settings = Settings.load(Optional.of(file), List.of());
        settings.rejectUnknown(keys);
        for (ConfigKey<?> k : keys) {
            if (settings.isSet(k.name())) {
                settings.get(k);
            }
        }
        return settings;
    }
}
