package io.shardvault.common.erasure.internal;

import io.shardvault.common.erasure.ErasureLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The native engine: Jerasure 2's {@code reed_sol_vandermonde_coding_matrix} (w = 8),
 * {@code jerasure_matrix_encode}, {@code jerasure_make_decoding_matrix} and
 * {@code jerasure_matrix_dotprod}, reached through the jerasure4j JNI shim without copying chunk
 * bytes. The coding matrix lives in a direct buffer made once per layout; decode rows, one set per
 * erasure pattern, in direct buffers held by the plan cache.
 *
 * <p>Buffer alignment and capacity are checked in C (see {@link Jerasure4j}); a bad buffer gives an
 * {@link IllegalArgumentException}, never a crash.
 *
 * <p>Thread-safe; usable after any exception. Create only when {@link Jerasure4jLoader#cause()} is null.
 */
public final class JerasureCodec extends AbstractErasureCodec<ByteBuffer> {

    public static final String ENGINE = "jerasure4j";

    private final ByteBuffer matrix;

    public JerasureCodec(ErasureLayout layout, int maxDecodePlans) {
        super(layout, nativeCodingMatrix(layout), maxDecodePlans, false);
        this.matrix = directInts(coding, coding.length);
    }

    private static int[] nativeCodingMatrix(ErasureLayout layout) {
        Throwable cause = Jerasure4jLoader.cause();
        if (cause != null) {
            throw new IllegalStateException("jerasure4j is unavailable: " + cause, cause);
        }
        int[] out = new int[layout.k() * layout.m()];
        Jerasure4j.codingMatrix(layout.k(), layout.m(), out);
        return out;
    }

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    void encodeChecked(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength) {
        ByteBuffer[] chunks = new ByteBuffer[n];
        int[] offsets = new int[n];
        for (int i = 0; i < k; i++) {
            chunks[i] = data[i];
            offsets[i] = data[i].position();
        }
        for (int i = 0; i < m; i++) {
            chunks[k + i] = parity[i];
            offsets[k + i] = parity[i].position();
        }
        Jerasure4j.encode(k, m, matrix, chunks, offsets, chunkLength);
    }

    @Override
    void decodeChecked(DecodePlan<ByteBuffer> plan, ByteBuffer[] chunks, boolean[] present, int chunkLength) {
        // Only the survivors and the wanted outputs go to C: extra present chunks stay untouched.
        ByteBuffer[] call = new ByteBuffer[n];
        int[] offsets = new int[n];
        for (int s : plan.survivors) {
            call[s] = chunks[s];
            offsets[s] = chunks[s].position();
        }
        for (int d : plan.lost) {
            if (!present[d] && chunks[d] != null) {
                call[d] = chunks[d];
                offsets[d] = chunks[d].position();
            }
        }
        Jerasure4j.dotprod(k, m, plan.prepared, m, plan.survivors, plan.lost, call, offsets, chunkLength);
    }

    @Override
    int[] invert(int[] survivors) {
        int[] erased = new int[n];
        Arrays.fill(erased, 1);
        for (int s : survivors) {
            erased[s] = 0;
        }
        int[] decoding = new int[k * k];
        int[] ids = new int[k];
        if (Jerasure4j.decodingMatrix(k, m, coding, erased, decoding, ids) != 0) {
            throw new IllegalStateException("jerasure_make_decoding_matrix failed for survivors "
                    + Arrays.toString(survivors) + " of " + layout);
        }
        if (!Arrays.equals(ids, survivors)) {
            throw new IllegalStateException("Jerasure chose survivors " + Arrays.toString(ids) + ", expected "
                    + Arrays.toString(survivors));
        }
        return decoding;
    }

    @Override
    ByteBuffer prepare(int[] rows, int rowCount) {
        return directInts(rows, rowCount * k);
    }

    private static ByteBuffer directInts(int[] values, int count) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(4, count * 4)).order(ByteOrder.nativeOrder());
        buffer.asIntBuffer().put(values, 0, count);
        return buffer;
    }
}
