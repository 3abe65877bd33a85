package io.shardvault.common.rpc.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream into {@link Frame}s whose header and payload are retained slices of the
 * received bytes (no copy). A protocol violation (oversize length, bad magic, unknown version or
 * flags, a header longer than its frame) closes the connection with a logged reason: after one,
 * nothing later on the stream can be trusted to start at a frame boundary. It is checked as soon
 * as the prefix arrives, before waiting for the body.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxFrameBytes;
    private final ClosedConnectionLog closings;
    private boolean failed;

    /** {@code closings} is shared by every connection of one server or client, so its throttle spans them. */
    public FrameDecoder(int maxFrameBytes, ClosedConnectionLog closings) {
        this.maxFrameBytes = maxFrameBytes;
        this.closings = closings;
        // A chunk spans many socket reads. Merging reads into one buffer would copy every payload
        // byte once more; composing them hands the reads themselves to the handler as the slice.
        setCumulator(COMPOSITE_CUMULATOR);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < FrameFormat.PREFIX_BYTES) {
            return;
        }
        int start = in.readerIndex();
        long length = in.getUnsignedInt(start);
        int magic = in.getUnsignedShort(start + 4);
        int version = in.getUnsignedByte(start + 6);
        int flags = in.getUnsignedByte(start + 7);
        int headerLength = in.getUnsignedShort(start + 18);
        String violation = null;
        if (magic != FrameFormat.MAGIC) {
            violation = "bad magic 0x" + Integer.toHexString(magic);
        } else if (version != FrameFormat.VERSION) {
            violation = "unsupported protocol version " + version;
        } else if (length + 4 > maxFrameBytes) {
            violation = "frame of " + (length + 4) + " bytes exceeds the maximum of " + maxFrameBytes;
        } else if (length < FrameFormat.MIN_LENGTH + headerLength) {
            violation = "frame length " + length + " cannot hold its " + headerLength + "-byte header";
        } else if ((flags & ~Frame.KNOWN_FLAGS) != 0) {
            violation = "unknown flags 0x" + Integer.toHexString(flags);
        }
        if (violation != null) {
            failed = true;
            in.skipBytes(in.readableBytes());
            closings.closing(ctx.channel().remoteAddress(), violation);
            ctx.close();
            return;
        }
        if (in.readableBytes() < length + 4) {
            return;
        }
        long requestId = in.getLong(start + 8);
        int op = in.getUnsignedShort(start + 16);
        int payloadLength = (int) length - FrameFormat.MIN_LENGTH - headerLength;
        in.skipBytes(FrameFormat.PREFIX_BYTES);
        ByteBuf header = in.readRetainedSlice(headerLength);
        ByteBuf payload = in.readRetainedSlice(payloadLength);
        out.add(new Frame(requestId, op, flags, header, payload));
    }
}
