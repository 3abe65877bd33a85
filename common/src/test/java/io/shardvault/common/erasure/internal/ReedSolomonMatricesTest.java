package io.shardvault.common.erasure.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The format's matrices and field, pinned without the native library (docs/ERASURE_FORMAT.md). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReedSolomonMatricesTest {

    @Test
    void codingMatricesArePinned() {
        assertThat(ReedSolomonMatrices.codingMatrix(4, 2)).containsExactly(
                1, 1, 1, 1,
                1, 70, 143, 200);
        assertThat(ReedSolomonMatrices.codingMatrix(6, 3)).containsExactly(
                1, 1, 1, 1, 1, 1,
                1, 225, 151, 172, 82, 200,
                1, 123, 245, 143, 244, 142);
        int[] c16 = ReedSolomonMatrices.codingMatrix(16, 4);
        assertThat(java.util.Arrays.copyOfRange(c16, 48, 64)).containsExactly(
                1, 217, 172, 116, 70, 158, 235, 51, 143, 87, 34, 250, 200, 16, 101, 189);
    }

    @Test
    void fieldIsGf256Over0x11d() {
        assertThat(Gf256.multiply(0x80, 2)).isEqualTo(0x1d);
        assertThat(Gf256.multiply(3, 7)).isEqualTo(9);
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            int a = random.nextInt(256);
            int b = 1 + random.nextInt(255);
            assertThat(Gf256.multiply(Gf256.divide(a, b), b)).isEqualTo(a);
            assertThat(Gf256.multiply(a, b)).isEqualTo(carrylessMultiplyMod(a, b));
        }
        assertThatThrownBy(() -> Gf256.divide(1, 0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void everyKSubsetOfTheDistributionMatrixInverts() {
        int k = 6;
        int[] coding = ReedSolomonMatrices.codingMatrix(k, 3);
        for (int mask = 0; mask < 1 << 9; mask++) {
            if (Integer.bitCount(mask) == k) {
                int[] survivors = new int[k];
                for (int i = 0, s = 0; i < 9; i++) {
                    if ((mask & 1 << i) != 0) {
                        survivors[s++] = i;
                    }
                }
                int[] inverse = ReedSolomonMatrices.decodingMatrix(k, coding, survivors);
                assertThat(inverse).hasSize(k * k);
            }
        }
    }

    private static int carrylessMultiplyMod(int a, int b) {
        int product = 0;
        for (int i = 0; i < 8; i++) {
            if ((b & 1 << i) != 0) {
                product ^= a << i;
            }
        }
        for (int bit = 15; bit >= 8; bit--) {
            if ((product & 1 << bit) != 0) {
                product ^= Gf256.POLYNOMIAL << (bit - 8);
            }
        }
        return product;
    }
}
