package io.shardvault.common.rpc.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes a {@link Frame} as its 20-byte prefix followed by the header and payload buffers
 * themselves, so payload bytes reach the socket without being copied.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<Frame> {
    public static final FrameEncoder INSTANCE = new FrameEncoder();

    private FrameEncoder() {
        super(Frame.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
        int headerLength = frame.header().readableBytes();
        long length = FrameFormat.MIN_LENGTH + (long) headerLength + frame.payload().readableBytes();
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("frame too large: " + length);
        }
        ByteBuf prefix = ctx.alloc().buffer(FrameFormat.PREFIX_BYTES);
        prefix.writeInt((int) length);
        prefix.writeShort(FrameFormat.MAGIC);
        prefix.writeByte(FrameFormat.VERSION);
        prefix.writeByte(frame.flags());
        prefix.writeLong(frame.requestId());
        prefix.writeShort(frame.op());
        prefix.writeShort(headerLength);
        out.add(prefix);
        if (headerLength > 0) {
            out.add(frame.header().retain());
        }
        if (frame.payload().isReadable()) {
            out.add(frame.payload().retain());
        }
    }
}
