package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErasureStripesTest {

    @Test
    void chunkLengthRuleIsPinned() {
        // A forever format: these values must never change.
        assertThat(ErasureStripes.chunkLength(0, 16)).isZero();
        assertThat(ErasureStripes.chunkLength(1, 16)).isEqualTo(16);
        assertThat(ErasureStripes.chunkLength(256, 16)).isEqualTo(16);
        assertThat(ErasureStripes.chunkLength(257, 16)).isEqualTo(32);
        assertThat(ErasureStripes.chunkLength(1 << 20, 16)).isEqualTo(65536);
        assertThat(ErasureStripes.chunkLength(1 << 20, 17)).isEqualTo(61696);
        assertThat(ErasureStripes.chunkLength(1 << 20, 15)).isEqualTo(69920);
        assertThat(ErasureStripes.chunkLength(1_000_003, 16)).isEqualTo(62512);
        assertThat(ErasureStripes.chunkLength(100, 4)).isEqualTo(32);
        assertThat(new ErasureLayout(17, 3).chunkLength(262_144)).isEqualTo(15424);
        assertThatThrownBy(() -> ErasureStripes.chunkLength(-1, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ErasureStripes.chunkLength(1L << 40, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void splitPadsWithZerosAndJoinRestoresTheStripe() {
        SplittableRandom random = new SplittableRandom(11);
        for (int round = 0; round < 200; round++) {
            int k = 1 + random.nextInt(20);
            int stripeBytes = random.nextInt(5000);
            int chunkLength = ErasureStripes.chunkLength(stripeBytes, k);
            ByteBuffer stripe = ByteBuffer.allocate(stripeBytes + 10);
            stripe.position(5).limit(5 + stripeBytes);
            TestData.fill(stripe, stripeBytes, round);
            ByteBuffer[] chunks = AlignedBuffers.allocateChunks(k, chunkLength);
            for (ByteBuffer chunk : chunks) {
                TestData.poison(chunk, chunkLength);
            }
            ErasureStripes.split(stripe, chunks, chunkLength);
            assertThat(stripe.position()).isEqualTo(5);
            for (int j = 0; j < k; j++) {
                for (int i = 0; i < chunkLength; i++) {
                    long at = (long) j * chunkLength + i;
                    byte expected = at < stripeBytes ? stripe.get(5 + (int) at) : 0;
                    assertThat(chunks[j].get(i)).isEqualTo(expected);
                }
            }
            ByteBuffer out = ByteBuffer.allocateDirect(stripeBytes);
            ErasureStripes.join(chunks, chunkLength, stripeBytes, out);
            assertThat(out.position()).isEqualTo(stripeBytes);
            out.flip();
            assertThat(out).isEqualTo(stripe);
        }
    }

    @Test
    void slicesAreZeroCopyViewsOfABlock() {
        int chunkLength = ErasureStripes.chunkLength(1000, 6);
        ByteBuffer block = AlignedBuffers.allocate(6 * chunkLength);
        ByteBuffer[] slices = ErasureStripes.slices(block, 6, chunkLength);
        block.put(2 * chunkLength + 3, (byte) 42);
        assertThat(slices[2].get(3)).isEqualTo((byte) 42);
        for (ByteBuffer slice : slices) {
            assertThat(slice.alignmentOffset(0, 16)).isZero();
            assertThat(slice.capacity()).isEqualTo(chunkLength);
        }
        assertThatThrownBy(() -> ErasureStripes.slices(block, 7, chunkLength))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsStripesThatDoNotFit() {
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(2, 16);
        assertThatThrownBy(() -> ErasureStripes.split(ByteBuffer.allocate(33), chunks, 16))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
    }
}
