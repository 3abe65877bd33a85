package io.shardvault.common.erasure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.erasure.AlignedBuffers;
import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.erasure.NativeSupport;
import io.shardvault.common.erasure.TestData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Java engine against Jerasure itself: matrices, inverses, and coded bytes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EngineCrossCheckTest {

    private static final Logger LOG = LoggerFactory.getLogger(EngineCrossCheckTest.class);
    private static final long SEED = 0xC0DE_C0DE_2026L;

    @BeforeEach
    void requireNative() {
        NativeSupport.assumeNative();
    }

    @Test
    void javaCodingMatrixEqualsReedSolVandermondeCodingMatrix() {
        List<int[]> layouts = new ArrayList<>();
        for (int n = 2; n <= 40; n++) {
            for (int k = 1; k < n; k++) {
                layouts.add(new int[] {k, n - k});
            }
        }
        for (int[] extreme : new int[][] {{1, 255}, {255, 1}, {128, 128}, {200, 56}, {100, 100}, {64, 16},
                {15, 5}, {16, 4}, {17, 3}}) {
            layouts.add(extreme);
        }
        for (int[] km : layouts) {
            int[] expected = new int[km[0] * km[1]];
            Jerasure4j.codingMatrix(km[0], km[1], expected);
            assertThat(ReedSolomonMatrices.codingMatrix(km[0], km[1])).as("coding matrix %d+%d", km[0], km[1])
                    .isEqualTo(expected);
        }
    }

    @Test
    void javaInverseEqualsJerasureMakeDecodingMatrix() {
        SplittableRandom random = new SplittableRandom(SEED);
        LOG.info("decoding matrix cross-check seed {}", SEED);
        for (ErasureLayout layout : List.of(new ErasureLayout(16, 4), new ErasureLayout(17, 3),
                new ErasureLayout(15, 5), new ErasureLayout(40, 20), new ErasureLayout(4, 2))) {
            JerasureCodec jerasure = new JerasureCodec(layout, 4);
            JavaReedSolomonCodec java = new JavaReedSolomonCodec(layout, 4);
            for (int t = 0; t < 50; t++) {
                int[] survivors = randomSurvivors(random, layout);
                assertThat(java.invert(survivors)).as("inverse for %s survivors %s", layout, Arrays.toString(survivors))
                        .isEqualTo(jerasure.invert(survivors));
                assertThat(java.plan(survivors).rows).isEqualTo(jerasure.plan(survivors).rows);
            }
        }
    }

    @Test
    void enginesProduceIdenticalBytesForRandomLayoutsAndLengths() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        LOG.info("random engine cross-check seed {}", SEED + 1);
        for (int round = 0; round < 150; round++) {
            int n = 2 + random.nextInt(round < 140 ? 30 : 255);
            int k = 1 + random.nextInt(n - 1);
            ErasureLayout layout = new ErasureLayout(k, n - k);
            int chunkLength = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(600);
            ByteBuffer[] a = AlignedBuffers.allocateChunks(layout.n(), chunkLength);
            ByteBuffer[] b = AlignedBuffers.allocateChunks(layout.n(), chunkLength);
            for (int i = 0; i < layout.k(); i++) {
                TestData.fill(a[i], chunkLength, random.nextLong());
                b[i].put(0, a[i], 0, chunkLength);
            }
            new JerasureCodec(layout, 4).encode(Arrays.copyOf(a, layout.k()),
                    Arrays.copyOfRange(a, layout.k(), layout.n()), chunkLength);
            new JavaReedSolomonCodec(layout, 4).encode(Arrays.copyOf(b, layout.k()),
                    Arrays.copyOfRange(b, layout.k(), layout.n()), chunkLength);
            for (int i = layout.k(); i < layout.n(); i++) {
                assertThat(TestData.bytes(b[i], chunkLength)).as("parity %d of %s, chunkLength %d", i, layout,
                        chunkLength).isEqualTo(TestData.bytes(a[i], chunkLength));
            }
        }
    }

    @Test
    void decodePlanCacheIsBounded() {
        ErasureLayout layout = new ErasureLayout(16, 4);
        SplittableRandom random = new SplittableRandom(SEED + 2);
        for (AbstractErasureCodec<?> codec : List.<AbstractErasureCodec<?>>of(new JerasureCodec(layout, 8),
                new JavaReedSolomonCodec(layout, 8))) {
            for (int t = 0; t < 100; t++) {
                codec.plan(randomSurvivors(random, layout));
                assertThat(codec.cachedPlans()).isLessThanOrEqualTo(8);
            }
            int[] survivors = randomSurvivors(random, layout);
            assertThat(codec.plan(survivors)).isSameAs(codec.plan(survivors));
        }
    }

    private static int[] randomSurvivors(SplittableRandom random, ErasureLayout layout) {
        boolean[] lost = new boolean[layout.n()];
        int count = random.nextInt(layout.m() + 1);
        for (int chosen = 0; chosen < count; ) {
            int i = random.nextInt(layout.n());
            if (!lost[i]) {
                lost[i] = true;
                chosen++;
            }
        }
        int[] survivors = new int[layout.k()];
        for (int i = 0, s = 0; s < layout.k(); i++) {
            if (!lost[i]) {
                survivors[s++] = i;
            }
        }
        return survivors;
    }
}
