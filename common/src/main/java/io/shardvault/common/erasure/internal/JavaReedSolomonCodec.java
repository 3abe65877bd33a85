package io.shardvault.common.erasure.internal;

import io.shardvault.common.erasure.ErasureLayout;
import java.nio.ByteBuffer;

/**
 * The pure-Java engine, byte-identical to {@link JerasureCodec}: the same coding matrix (a port of
 * Jerasure's construction, {@link ReedSolomonMatrices}), the same field ({@link Gf256}, 0x11d), the
 * same chunk layout. Coding runs through {@link PackedTableCoder}. Used where the native library is
 * missing, and as the reference the native engine is tested against.
 *
 * <p>Checks buffer alignment in Java with the same rule as the native engine, so code that works
 * with one engine works with the other. Thread-safe; usable after any exception.
 */
public final class JavaReedSolomonCodec extends AbstractErasureCodec<PackedTableCoder> {

    public static final String ENGINE = "java";

    private final PackedTableCoder encoder;

    public JavaReedSolomonCodec(ErasureLayout layout, int maxDecodePlans) {
        super(layout, ReedSolomonMatrices.codingMatrix(layout.k(), layout.m()), maxDecodePlans, true);
        this.encoder = new PackedTableCoder(k, coding, m);
    }

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    void encodeChecked(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength) {
        encoder.code(data, parity, chunkLength);
    }

    @Override
    void decodeChecked(DecodePlan<PackedTableCoder> plan, ByteBuffer[] chunks, boolean[] present, int chunkLength) {
        ByteBuffer[] src = new ByteBuffer[k];
        for (int i = 0; i < k; i++) {
            src[i] = chunks[plan.survivors[i]];
        }
        ByteBuffer[] dst = new ByteBuffer[m];
        for (int r = 0; r < m; r++) {
            int d = plan.lost[r];
            dst[r] = present[d] ? null : chunks[d];
        }
        plan.prepared.code(src, dst, chunkLength);
    }

    @Override
    int[] invert(int[] survivors) {
        return ReedSolomonMatrices.decodingMatrix(k, coding, survivors);
    }

    @Override
    PackedTableCoder prepare(int[] rows, int rowCount) {
        return new PackedTableCoder(k, rows, rowCount);
    }
}
