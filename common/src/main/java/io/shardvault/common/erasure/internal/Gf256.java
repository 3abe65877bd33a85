package io.shardvault.common.erasure.internal;

/**
 * Arithmetic in GF(2^8) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), the field
 * gf-complete uses by default for w = 8 and so the one the format is defined over. Addition is XOR.
 *
 * <p>Immutable tables; thread-safe.
 */
public final class Gf256 {

    /** The field polynomial; part of the format. */
    public static final int POLYNOMIAL = 0x11d;

    private static final int[] EXP = new int[512];
    private static final int[] LOG = new int[256];
    /** MUL[a * 256 + b] = a * b; 64 KiB, used to build coding tables, never in inner loops of encode. */
    private static final byte[] MUL = new byte[256 * 256];

    static {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            EXP[i] = x;
            LOG[x] = i;
            x <<= 1;
            if ((x & 0x100) != 0) {
                x ^= POLYNOMIAL;
            }
        }
        for (int i = 255; i < EXP.length; i++) {
            EXP[i] = EXP[i - 255];
        }
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                MUL[a * 256 + b] = (byte) slowMultiply(a, b);
            }
        }
    }

    private Gf256() {
    }

    private static int slowMultiply(int a, int b) {
        return a == 0 || b == 0 ? 0 : EXP[LOG[a] + LOG[b]];
    }

    public static int multiply(int a, int b) {
        return MUL[(a & 0xff) << 8 | (b & 0xff)] & 0xff;
    }

    /** {@code a / b}; {@code b} must not be 0. */
    public static int divide(int a, int b) {
        if (b == 0) {
            throw new ArithmeticException("division by zero in GF(2^8)");
        }
        return a == 0 ? 0 : EXP[LOG[a] + 255 - LOG[b]];
    }

    public static int inverse(int a) {
        return divide(1, a);
    }
}
