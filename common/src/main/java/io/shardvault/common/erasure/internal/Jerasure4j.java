package io.shardvault.common.erasure.internal;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of libjerasure4j ({@code common/src/main/native/jerasure4j.c}). Call only after
 * {@link Jerasure4jLoader#cause()} returned null.
 *
 * <p>Chunks are passed as k + m direct buffers with a byte offset each; the C side checks that
 * every chunk it touches is direct, starts on a 16-byte boundary and has {@code chunkLength} bytes
 * within its capacity, and throws {@link IllegalArgumentException} otherwise, before reaching
 * Jerasure (whose gf-complete SIMD code would abort the JVM). Matrices are direct buffers of
 * native-order ints. All functions are thread-safe.
 */
public final class Jerasure4j {
    private Jerasure4j() {
    }

    /**
     * Initialises the gf-complete fields the coding calls use (w = 8, and w = 32 for region XOR),
     * which galois would otherwise set up lazily and racily on the first concurrent calls; returns
     * the shim's ABI version, or -1.
     */
    static native int init();

    /** How many of those fields are not initialised (0 after {@link #init()}). */
    static native int lazyFields();

    /** {@code reed_sol_vandermonde_coding_matrix(k, m, 8)} into {@code out} (m rows of k). */
    public static native void codingMatrix(int k, int m, int[] out);

    /**
     * {@code jerasure_make_decoding_matrix}: the k x k inverse of the rows of the first k chunks not
     * marked in {@code erased} (k + m flags), and their ids in {@code dmIds}. Returns 0, or -1 when
     * fewer than k chunks survive.
     */
    public static native int decodingMatrix(int k, int m, int[] codingMatrix, int[] erased, int[] decoding,
                                            int[] dmIds);

    /** {@code jerasure_matrix_encode}: chunks k..k+m-1 from chunks 0..k-1. */
    public static native void encode(int k, int m, ByteBuffer matrix, ByteBuffer[] chunks, int[] offsets,
                                     int chunkLength);

    /**
     * For each r below rowCount with a non-null {@code chunks[destIds[r]]}: that chunk becomes the
     * GF(2^8) dot product of row r of {@code rows} (k ints) with chunks {@code srcIds}
     * ({@code jerasure_matrix_dotprod}).
     */
    public static native void dotprod(int k, int m, ByteBuffer rows, int rowCount, int[] srcIds, int[] destIds,
                                      ByteBuffer[] chunks, int[] offsets, int chunkLength);
}
