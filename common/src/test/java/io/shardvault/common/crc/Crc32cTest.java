package io.shardvault.common.crc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Crc32cTest {
    @Test
    void matchesTheStandardCheckValue() {
        // RFC 3720 / the Castagnoli check value of "123456789".
        assertThat(Crc32c.of("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0xE3069283);
        assertThat(Crc32c.format(0xE3069283)).isEqualTo("e3069283");
        assertThat(Crc32c.of(new byte[0])).isZero();
    }

    @Test
    void agreesAcrossArraysNioBuffersAndNettyBuffersWithoutMovingThem() {
        Random random = new Random(11);
        byte[] bytes = new byte[70_000];
        random.nextBytes(bytes);
        int expected = Crc32c.of(bytes, 100, 60_000);

        ByteBuffer heap = ByteBuffer.wrap(bytes, 100, 60_000);
        assertThat(Crc32c.of(heap)).isEqualTo(expected);
        assertThat(heap.position()).isEqualTo(100);

        ByteBuffer direct = ByteBuffer.allocateDirect(60_000).put(bytes, 100, 60_000).flip();
        assertThat(Crc32c.of(direct)).isEqualTo(expected);
        assertThat(direct.position()).isZero();

        ByteBuf wrapped = Unpooled.wrappedBuffer(bytes).readerIndex(100).writerIndex(60_100);
        assertThat(Crc32c.of(wrapped)).isEqualTo(expected);
        assertThat(wrapped.readerIndex()).isEqualTo(100);

        ByteBuf directBuf = Unpooled.directBuffer(70_000).writeBytes(bytes);
        assertThat(Crc32c.of(directBuf, 100, 60_000)).isEqualTo(expected);

        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 100, 10_000));
        composite.addComponent(true, Unpooled.directBuffer(50_000).writeBytes(bytes, 10_100, 50_000));
        assertThat(Crc32c.of(composite)).isEqualTo(expected);
        ByteBuffer[] parts = composite.nioBuffers();
        assertThat(parts).hasSize(2);
        int firstPosition = parts[0].position();
        assertThat(Crc32c.of(parts)).isEqualTo(expected);
        assertThat(parts[0].position()).isEqualTo(firstPosition);

        directBuf.release();
        composite.release();
    }
}
