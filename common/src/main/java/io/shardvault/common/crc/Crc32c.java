package io.shardvault.common.crc;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C (Castagnoli) of byte ranges, as every chunk carries it on the wire and on disk. The JDK's
 * implementation uses the CPU's CRC32 instructions, on heap and direct memory alike.
 *
 * <p>None of these methods move a buffer's position or reader index. Values are the standard
 * CRC32C (the check value of {@code "123456789"} is {@code 0xE3069283}) returned as an
 * {@code int}; compare them as ints.
 *
 * <p>Thread-safe: stateless.
 */
public final class Crc32c {

    private Crc32c() {
    }

    /** CRC32C of the whole array. */
    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }

    /** CRC32C of {@code length} bytes from {@code offset}. */
    public static int of(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** CRC32C of the buffer's remaining bytes, from its position to its limit. */
    public static int of(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate());
        return (int) crc.getValue();
    }

    /** CRC32C of the remaining bytes of {@code parts}, one after the other (a composite buffer's NIO views). */
    public static int of(ByteBuffer[] parts) {
        CRC32C crc = new CRC32C();
        for (ByteBuffer part : parts) {
            crc.update(part.duplicate());
        }
        return (int) crc.getValue();
    }

    /** CRC32C of the buffer's readable bytes. */
    public static int of(ByteBuf buf) {
        return of(buf, buf.readerIndex(), buf.readableBytes());
    }

    /** CRC32C of {@code length} bytes of the buffer from absolute index {@code index}. */
    public static int of(ByteBuf buf, int index, int length) {
        CRC32C crc = new CRC32C();
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
        } else {
            for (ByteBuffer part : buf.nioBuffers(index, length)) {
                crc.update(part);
            }
        }
        return (int) crc.getValue();
    }

    /** Formats a CRC the way logs and errors show it: eight hex digits. */
    public static String format(int crc) {
        return String.format("%08x", crc);
    }
}
