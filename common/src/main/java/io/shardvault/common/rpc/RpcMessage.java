package io.shardvault.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Objects;

/**
 * One request or response: an op code, a small header and a payload. The message owns both
 * buffers; {@link #close()} releases them, once.
 *
 * <p>Not thread-safe; hand a message from thread to thread, don't share it.
 */
public final class RpcMessage implements AutoCloseable {
    /** Largest header, bounded by its u16 length field. */
    public static final int MAX_HEADER_BYTES = 0xFFFF;
    /** Largest op code, bounded by its u16 field. */
    public static final int MAX_OP = 0xFFFF;

    private final int op;
    private final ByteBuf header;
    private final ByteBuf payload;

    /**
     * @param op the op code, {@code 0..65535}
     * @param header op-specific fields, at most {@value #MAX_HEADER_BYTES} readable bytes; ownership passes to the message
     * @param payload bulk bytes; ownership passes to the message
     */
    public RpcMessage(int op, ByteBuf header, ByteBuf payload) {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(payload, "payload");
        if (op < 0 || op > MAX_OP) {
            release(header, payload);
            throw new IllegalArgumentException("op must be in 0.." + MAX_OP + ": " + op);
        }
        if (header.readableBytes() > MAX_HEADER_BYTES) {
            int size = header.readableBytes();
            release(header, payload);
            throw new IllegalArgumentException("header is " + size + " bytes, over " + MAX_HEADER_BYTES);
        }
        this.op = op;
        this.header = header;
        this.payload = payload;
    }

    /** A message with an empty header and payload. */
    public static RpcMessage empty(int op) {
        return new RpcMessage(op, Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER);
    }

    /** A message with an empty header. */
    public static RpcMessage ofPayload(int op, ByteBuf payload) {
        return new RpcMessage(op, Unpooled.EMPTY_BUFFER, payload);
    }

    public int op() {
        return op;
    }

    /** The op-specific header; valid until {@link #close()}. */
    public ByteBuf header() {
        return header;
    }

    /** The payload; valid until {@link #close()}. */
    public ByteBuf payload() {
        return payload;
    }

    /** Releases the header and payload. */
    @Override
    public void close() {
        release(header, payload);
    }

    private static void release(ByteBuf header, ByteBuf payload) {
        header.release();
        payload.release();
    }

    @Override
    public String toString() {
        return "RpcMessage{op=" + op + ", header=" + header.readableBytes() + "B, payload=" + payload.readableBytes()
                + "B}";
    }
}
