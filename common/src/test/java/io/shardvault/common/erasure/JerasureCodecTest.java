package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.erasure.internal.Jerasure4j;
import io.shardvault.common.erasure.internal.JerasureCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JerasureCodecTest extends AbstractErasureCodecTest {

    @BeforeEach
    void requireNative() {
        NativeSupport.assumeNative();
    }

    @Override
    ErasureCodec newCodec(ErasureLayout layout) {
        return new JerasureCodec(layout, 64);
    }

    /**
     * Straight at the JNI entry points, past every Java check: the C code itself must refuse a misaligned
     * chunk with an exception (gf-complete would abort() the JVM), and a chunk overrunning its capacity.
     */
    @Test
    void shimRejectsMisalignedAndShortBuffersItself() {
        int k = 4;
        int m = 2;
        int[] coding = new int[k * m];
        Jerasure4j.codingMatrix(k, m, coding);
        ByteBuffer matrix = ByteBuffer.allocateDirect(coding.length * 4).order(ByteOrder.nativeOrder());
        matrix.asIntBuffer().put(coding);
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(k + m, 256);
        int[] offsets = new int[k + m];

        ByteBuffer[] misaligned = chunks.clone();
        misaligned[5] = AlignedBuffers.allocate(512);
        int[] oddOffsets = offsets.clone();
        oddOffsets[5] = 8;
        assertThatThrownBy(() -> Jerasure4j.encode(k, m, matrix, misaligned, oddOffsets, 256))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 5")
                .hasMessageContaining("16-byte aligned");

        int[] srcIds = {1, 2, 3, 4};
        int[] destIds = {0, 5};
        ByteBuffer rows = ByteBuffer.allocateDirect(2 * k * 4).order(ByteOrder.nativeOrder());
        int[] srcOdd = offsets.clone();
        srcOdd[2] = 1;
        ByteBuffer[] withRoom = chunks.clone();
        withRoom[2] = AlignedBuffers.allocate(512);
        assertThatThrownBy(() -> Jerasure4j.dotprod(k, m, rows, 2, srcIds, destIds, withRoom, srcOdd, 256))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 2");

        assertThatThrownBy(() -> Jerasure4j.encode(k, m, matrix, chunks, offsets, 257))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("capacity");
        ByteBuffer[] heap = chunks.clone();
        heap[0] = ByteBuffer.allocate(256);
        assertThatThrownBy(() -> Jerasure4j.encode(k, m, matrix, heap, offsets, 256))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("direct");
        assertThatThrownBy(() -> Jerasure4j.encode(k, 0, matrix, chunks, offsets, 256))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("layout");

        // The JVM is alive and the shim still works.
        Jerasure4j.encode(k, m, matrix, chunks, offsets, 256);
    }
}
