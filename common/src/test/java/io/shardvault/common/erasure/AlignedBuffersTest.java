package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AlignedBuffersTest {

    @Test
    void buffersAndChunksStartOnCacheLines() {
        for (int capacity : new int[] {0, 1, 15, 16, 63, 64, 65, 4097}) {
            ByteBuffer buffer = AlignedBuffers.allocate(capacity);
            assertThat(buffer.isDirect()).isTrue();
            assertThat(buffer.capacity()).isEqualTo(capacity);
            assertThat(buffer.alignmentOffset(0, AlignedBuffers.ALIGNMENT)).isZero();
        }
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(5, 100);
        assertThat(chunks).hasSize(5);
        for (ByteBuffer chunk : chunks) {
            assertThat(chunk.capacity()).isEqualTo(100);
            assertThat(chunk.alignmentOffset(0, AlignedBuffers.ALIGNMENT)).isZero();
        }
        chunks[0].put(99, (byte) 1);
        assertThat(chunks[1].get(0)).isZero();
    }
}
