package io.shardvault.coordinator.data;

import io.shardvault.common.erasure.ErasureLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class VaultLayoutTest {
    private final VaultLayout layout = new VaultLayout(new ErasureLayout(16, 4), 64 * 1024);

    @Test
    void aMebibyteIsOneStripeAndOneByteMoreIsTwo() {
        assertThat(layout.stripeBytes()).isEqualTo(1 << 20);
        assertThat(layout.stripeCount(0)).isZero();
        assertThat(layout.stripeCount(1)).isOne();
        assertThat(layout.stripeCount(1 << 20)).isOne();
        assertThat(layout.stripeCount((1 << 20) + 1)).isEqualTo(2);
        assertThat(layout.stripeLength((1 << 20) + 1, 1)).isOne();
    }

    @Test
    void chunkLengthsFollowTheErasureFormat() {
        assertThat(layout.chunkLength(1, 0)).isEqualTo(16);
        assertThat(layout.chunkLength(16 * 1024, 0)).isEqualTo(1024);
        assertThat(layout.chunkLength((1 << 20) - 1, 0)).isEqualTo(64 * 1024);
        assertThat(layout.chunkLength(3L << 20, 2)).isEqualTo(64 * 1024);
        assertThat(layout.chunkLength((2L << 20) + 17, 2)).isEqualTo(16);
        assertThat(layout.shardOffset(2)).isEqualTo(2 * 64 * 1024);
        assertThat(layout.shardLength((2L << 20) + 17)).isEqualTo(2 * 64 * 1024 + 16);
        assertThat(layout.shardLength(0)).isZero();
    }

    @Test
    void rejectsChunksThatBreakAlignment() {
        assertThatThrownBy(() -> new VaultLayout(new ErasureLayout(16, 4), 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 16");
        assertThatThrownBy(() -> layout.stripeLength(10, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writeQuorumDefaultsToNMinusOneAndMustCoverK() {
        assertThat(DataPathConfig.defaults().writeQuorum(layout)).isEqualTo(19);
        DataPathConfig low = DataPathConfig.from(io.shardvault.common.config.Settings.of(
                java.util.Map.of("data.write.quorum", "15")));
        assertThatThrownBy(() -> low.writeQuorum(layout)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k=16");
    }
}
