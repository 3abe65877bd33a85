package io.shardvault.common.erasure.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Multiplies k source chunks by a matrix of up to 255 rows over GF(2^8), in pure Java.
 *
 * <p>Why packed tables: a plain table-driven loop does one lookup per (output, input, byte). Here the
 * rows are taken in groups and, for each input j, a 256-entry table holds the products
 * {@code row[o][j] * b} of a byte b for every row o of the group, one per byte of the entry: an int
 * for groups of up to 4 rows (m <= 4: 16+4, 17+3), a long for up to 8 (15+5, 32+8). One lookup per
 * input byte then feeds the whole group: the inner loop reads 8 input bytes as one little-endian long
 * and XORs eight table entries into an accumulator, with no branch per byte. The accumulator (one
 * entry per byte of a block) is unpacked into the group's outputs at the end of the block. Int
 * tables for 16 inputs take 16 KiB and the int accumulator 8 KiB; long tables for 15 inputs 30 KiB
 * and the long accumulator 8 KiB (half the block): both stay in a 48 KiB L1.
 *
 * <p>The int and long paths repeat the same unrolled loops ({@code accumulate}, {@code unpack}) on
 * purpose: Java generics cannot range over primitive arrays, and a shared loop over a wider type or
 * through an interface would cost the int path its narrower tables and the JIT its monomorphic,
 * bounds-check-free inner loop. Change one, change the other.
 *
 * <p>Immutable after construction; thread-safe (scratch space is per call).
 */
final class PackedTableCoder {

    /** Bytes per block of the int path. */
    static final int BLOCK = 2048;
    /** Bytes per block of the long path: a long accumulator is twice as large per byte. */
    static final int LONG_BLOCK = 1024;

    private final int k;
    private final int rows;
    /** Rows per group: 4 (int tables) when rows <= 4, else 8 (long tables). */
    private final int groupRows;
    /** intTables[g][j][b]: products of byte b with the rows of group g at column j (int path). */
    private final int[][][] intTables;
    /** longTables[g][j][b]: the same with up to 8 rows per entry (long path). */
    private final long[][][] longTables;

    PackedTableCoder(int k, int[] matrix, int rows) {
        this.k = k;
        this.rows = rows;
        this.groupRows = rows <= 4 ? 4 : 8;
        int groups = (rows + groupRows - 1) / groupRows;
        long[][][] tables = new long[groups][k][256];
        for (int r = 0; r < rows; r++) {
            int g = r / groupRows;
            int shift = 8 * (r % groupRows);
            for (int j = 0; j < k; j++) {
                int coef = matrix[r * k + j];
                long[] table = tables[g][j];
                for (int b = 0; b < 256; b++) {
                    table[b] |= (long) Gf256.multiply(coef, b) << shift;
                }
            }
        }
        if (groupRows == 4) {
            intTables = new int[groups][k][256];
            for (int g = 0; g < groups; g++) {
                for (int j = 0; j < k; j++) {
                    for (int b = 0; b < 256; b++) {
                        intTables[g][j][b] = (int) tables[g][j][b];
                    }
                }
            }
            longTables = null;
        } else {
            intTables = null;
            longTables = tables;
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
        int groups = (rows + groupRows - 1) / groupRows;
        int[] intAcc = intTables != null ? new int[BLOCK] : null;
        long[] longAcc = longTables != null ? new long[LONG_BLOCK] : null;
        for (int g = 0; g < groups; g++) {
            int first = g * groupRows;
            int last = Math.min(rows, first + groupRows);
            boolean wanted = false;
            for (int r = first; r < last; r++) {
                wanted |= out[r] != null;
            }
            if (!wanted) {
                continue;
            }
            if (intTables != null) {
                int[][] groupTables = intTables[g];
                for (int start = 0; start < length; start += BLOCK) {
                    int len = Math.min(BLOCK, length - start);
                    Arrays.fill(intAcc, 0, len, 0);
                    for (int j = 0; j < k; j++) {
                        accumulate(intAcc, groupTables[j], in[j], inPos[j] + start, len);
                    }
                    for (int r = first; r < last; r++) {
                        if (out[r] != null) {
                            unpack(intAcc, 8 * (r - first), out[r], outPos[r] + start, len);
                        }
                    }
                }
            } else {
                long[][] groupTables = longTables[g];
                for (int start = 0; start < length; start += LONG_BLOCK) {
                    int len = Math.min(LONG_BLOCK, length - start);
                    Arrays.fill(longAcc, 0, len, 0L);
                    for (int j = 0; j < k; j++) {
                        accumulate(longAcc, groupTables[j], in[j], inPos[j] + start, len);
                    }
                    for (int r = first; r < last; r++) {
                        if (out[r] != null) {
                            unpack(longAcc, 8 * (r - first), out[r], outPos[r] + start, len);
                        }
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

    private static void accumulate(long[] acc, long[] table, ByteBuffer in, int base, int len) {
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

    private static void unpack(long[] acc, int shift, ByteBuffer out, int base, int len) {
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
