package io.shardvault.common.rpc.internal;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;

/**
 * One decoded or to-be-encoded frame; see the package documentation of
 * {@code io.shardvault.common.rpc} for the layout. Reference counted so that Netty releases an
 * unwritten frame's buffers when a write fails.
 */
public final class Frame extends AbstractReferenceCounted {
    public static final int FLAG_RESPONSE = 1;
    public static final int FLAG_ERROR = 2;
    static final int KNOWN_FLAGS = FLAG_RESPONSE | FLAG_ERROR;

    private final long requestId;
    private final int op;
    private final int flags;
    private final ByteBuf header;
    private final ByteBuf payload;

    public Frame(long requestId, int op, int flags, ByteBuf header, ByteBuf payload) {
        this.requestId = requestId;
        this.op = op;
        this.flags = flags;
        this.header = header;
        this.payload = payload;
    }

    public long requestId() {
        return requestId;
    }

    public int op() {
        return op;
    }

    public int flags() {
        return flags;
    }

    public boolean isResponse() {
        return (flags & FLAG_RESPONSE) != 0;
    }

    public boolean isError() {
        return (flags & FLAG_ERROR) != 0;
    }

    public ByteBuf header() {
        return header;
    }

    public ByteBuf payload() {
        return payload;
    }

    /** Bytes on the wire, length prefix included. */
    public long wireSize() {
        return FrameFormat.PREFIX_BYTES + (long) header.readableBytes() + payload.readableBytes();
    }

    @Override
    protected void deallocate() {
        header.release();
        payload.release();
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        header.touch(hint);
        payload.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "Frame{id=" + requestId + ", op=" + op + ", flags=" + flags + ", header=" + header.readableBytes()
                + "B, payload=" + payload.readableBytes() + "B}";
    }
}
