package io.shardvault.coordinator.data;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.erasure.ErasureLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The large-file layout (issue #18) and the windows that follow from it. */
@Timeout(30)
class DataPathConfigTest {
    private static final int KIB = 1024;
    private static final int MIB = 1 << 20;
    private static final String KEY = "data.write.largeFileChunkBytes";
    private final VaultLayout vault = new VaultLayout(new ErasureLayout(16, 4), 64 * KIB);

    private static DataPathConfig withLargeChunk(Object value) {
        return DataPathConfig.from(Settings.of(Map.of(KEY, value)));
    }

    @Test
    void filesLargerThanOneVaultStripeGetTheLargeChunkOthersTheVaults() {
        DataPathConfig config = DataPathConfig.defaults();
        assertThat(config.largeFileChunkBytes()).isEqualTo(256 * KIB);
        VaultLayout large = new VaultLayout(vault.erasure(), 256 * KIB);
        assertThat(config.fileLayout(vault, MIB + 1)).isEqualTo(large);
        assertThat(config.fileLayout(vault, 8L * MIB)).isEqualTo(large);
        assertThat(large.stripeCount(8L * MIB)).isEqualTo(2);
        // One vault stripe or less (the stash's case) and a body of unknown length keep the vault's layout.
        for (long size : new long[] {0, 1, MIB - 1, MIB, -1}) {
            assertThat(config.fileLayout(vault, size)).as("size %d", size).isSameAs(vault);
        }
    }

    @Test
    void zeroOrTheVaultsChunkMeansTheVaultsLayout() {
        for (Object value : new Object[] {0, "64KiB"}) {
            assertThat(withLargeChunk(value).fileLayout(vault, 100L * MIB)).as("%s", value).isSameAs(vault);
        }
        assertThat(withLargeChunk("1MiB").fileLayout(vault, 100L * MIB).chunkBytes()).isEqualTo(MIB);
    }

    @Test
    void invalidChunksAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> withLargeChunk(1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(KEY).hasMessageContaining("multiple of 16");
        assertThatThrownBy(() -> withLargeChunk("32MiB")).isInstanceOf(ConfigException.class)
                .hasMessageContaining(KEY);
        assertThatThrownBy(() -> withLargeChunk(-16)).isInstanceOf(ConfigException.class).hasMessageContaining(KEY);
        DataPathConfig belowVault = withLargeChunk("32KiB");
        assertThatThrownBy(() -> belowVault.largeFileLayout(vault)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(KEY).hasMessageContaining("at least 65536");
        // A stripe beyond an int: 255 data chunks of 16 MiB.
        VaultLayout wide = new VaultLayout(new ErasureLayout(255, 1), 64 * KIB);
        assertThatThrownBy(() -> withLargeChunk("16MiB").largeFileLayout(wide))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(KEY);
    }

    @Test
    void windowsKeepTheBytesOfTheVaultsStripesButPipeline() {
        DataPathConfig config = DataPathConfig.defaults();
        VaultLayout large = config.largeFileLayout(vault);
        // 4 vault stripes are 4 MiB: one 4 MiB stripe by bytes, but a write needs 2 to overlap filling and sending.
        assertThat(config.writeWindowStripes(vault, vault)).isEqualTo(4);
        assertThat(config.writeWindowStripes(vault, large)).isEqualTo(2);
        // Read-ahead: 2 vault stripes are 2 MiB; one 4 MiB stripe ahead still overlaps fetching and consuming.
        assertThat(config.readWindowStripes(vault, vault)).isEqualTo(2);
        assertThat(config.readWindowStripes(vault, large)).isEqualTo(1);
        // Stripes twice the vault's: half as many; never more than the setting.
        VaultLayout twice = new VaultLayout(vault.erasure(), 128 * KIB);
        assertThat(config.writeWindowStripes(vault, twice)).isEqualTo(2);
        DataPathConfig wide = DataPathConfig.from(Settings.of(Map.of("data.write.maxInFlightStripes", 16,
                "data.read.aheadStripes", 8)));
        assertThat(wide.writeWindowStripes(vault, large)).isEqualTo(4);
        assertThat(wide.readWindowStripes(vault, large)).isEqualTo(2);
        DataPathConfig one = DataPathConfig.from(Settings.of(Map.of("data.write.maxInFlightStripes", 1)));
        assertThat(one.writeWindowStripes(vault, large)).isEqualTo(1);
    }
}
