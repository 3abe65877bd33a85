package io.shardvault.common.erasure.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Multiplies k source chunks by a matrix of up to 255 rows over GF(2^8), in pure Java.
 *
 * <p>Why packed tables: a plain table-driven loop does one lookup per (output, input, byte). Here
 * the rows are taken four at a time and, for each input j, a 256-entry int table holds the four
 * products {@code row[o][j] * b} of a byte b in its four bytes. One lookup per input byte then
 * feeds four outputs: the inner loop reads 8 input bytes as one little-endian long and XORs eight
 * table entries into an int accumulator, with no branch per byte. The accumulator (one int per byte
 * of a {@value #BLOCK}-byte block) is unpacked into the four outputs at the end of the block. The
 * tables for 16 inputs take 16 KiB, which stays in L1 with the accumulator.
 *
 * <p>Immutable after construction; thread-safe (scratch space is per call).
 */
final class PackedTableCoder {

    /** Bytes per block: the accumulator (4 x BLOCK bytes) plus tables fit in L1. */
    static final int BLOCK = 2048;
    private static final int ROWS_PER_GROUP = 4;

    private final int k;
    private final int rows;
    /** tables[g][j][b]: the products of byte b with rows 4g..4g+3 at column j, one per byte of the int. */
    private final int[][][] tables;

    PackedTableCoder(int k, int[] matrix, int rows) {
        this.k = k;
        this.rows = rows;
        int groups = (rows + ROWS_PER_GROUP - 1) / ROWS_PER_GROUP;
        this.tables = new int[groups][k][256];
        for (int r = 0; r < rows; r++) {
            int g = r / ROWS_PER_GROUP;
            int shift = 8 * (r % ROWS_PER_GROUP);
            for (int j = 0; j < k; j++) {
                int coef = matrix[r * k + j];
                int[] table = tables[g][j];
                for (int b = 0; b < 256; b++) {
                    table[b] |= Gf256.multiply(coef, b) << shift;
                }
            }
        }
    }

    /**
     * {@code dst[r] = sum over j of matrix[r][j] * src[j]} for every r with a non-null {@code dst[r]},
     * over {@code length} bytes from each buffer's position. Arguments are trusted (checked by the codec).
     */
    void code(ByteBuffer[] src, ByteBuffer[] dst, int length) {
        ByteBuffer[] in = new ByteBuffer[k];
        int[] inPos = new int[k];
        for (int j = 0; j < k; j++) {
            in[j] = src[j].duplicate().order(ByteOrder.LITTLE_ENDIAN);
            inPos[j] = src[j].position();
        }
        ByteBuffer[] out = new ByteBuffer[rows];
        int[] outPos = new int[rows];
        for (int r = 0; r < rows; r++) {
            if (dst[r] != null) {
                out[r] = dst[r].duplicate().order(ByteOrder.LITTLE_ENDIAN);
                outPos[r] = dst[r].position();
            }
        }
        int[] acc = new int[BLOCK];
        for (int g = 0; g < tables.length; g++) {
            int first = g * ROWS_PER_GROUP;
            int last = Math.min(rows, first + ROWS_PER_GROUP);
            boolean wanted = false;
            for (int r = first; r < last; r++) {
                wanted |= out[r] != null;
            }
            if (!wanted) {
                continue;
            }
            int[][] groupTables = tables[g];
            for (int start = 0; start < length; start += BLOCK) {
                int len = Math.min(BLOCK, length - start);
                Arrays.fill(acc, 0, len, 0);
                for (int j = 0; j < k; j++) {
                    accumulate(acc, groupTables[j], in[j], inPos[j] + start, len);
                }
                for (int r = first; r < last; r++) {
                    if (out[r] != null) {
                        unpack(acc, 8 * (r - first), out[r], outPos[r] + start, len);
                    }
                }
            }
        }
    }

    private static void accumulate(int[] acc, int[] table, ByteBuffer in, int base, int len) {
        int words = len & ~7;
        for (int i = 0; i < words; i += 8) {
            long w = in.getLong(base + i);
            acc[i] ^= table[(int) w & 0xff];
            acc[i + 1] ^= table[(int) (w >>> 8) & 0xff];
            acc[i + 2] ^= table[(int) (w >>> 16) & 0xff];
            acc[i + 3] ^= table[(int) (w >>> 24) & 0xff];
            acc[i + 4] ^= table[(int) (w >>> 32) & 0xff];
            acc[i + 5] ^= table[(int) (w >>> 40) & 0xff];
            acc[i + 6] ^= table[(int) (w >>> 48) & 0xff];
            acc[i + 7] ^= table[(int) (w >>> 56) & 0xff];
        }
        for (int i = words; i < len; i++) {
            acc[i] ^= table[in.get(base + i) & 0xff];
        }
    }

    private static void unpack(int[] acc, int shift, ByteBuffer out, int base, int len) {
        int words = len & ~7;
        for (int i = 0; i < words; i += 8) {
            long v = (acc[i] >>> shift & 0xffL)
                    | (acc[i + 1] >>> shift & 0xffL) << 8
                    | (acc[i + 2] >>> shift & 0xffL) << 16
                    | (acc[i + 3] >>> shift & 0xffL) << 24
                    | (acc[i + 4] >>> shift & 0xffL) << 32
                    | (acc[i + 5] >>> shift & 0xffL) << 40
                    | (acc[i + 6] >>> shift & 0xffL) << 48
                    | (acc[i + 7] >>> shift & 0xffL) << 56;
            out.putLong(base + i, v);
        }
        for (int i = words; i < len; i++) {
            out.put(base + i, (byte) (acc[i] >>> shift));
        }
    }
}
