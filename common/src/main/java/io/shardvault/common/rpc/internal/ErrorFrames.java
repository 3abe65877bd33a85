package io.shardvault.common.rpc.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import java.nio.charset.StandardCharsets;

/** Error frames: a u16 error code and a UTF-8 message in the header, an empty payload. */
public final class ErrorFrames {
    /** Longer messages are cut: an error frame must never approach the frame limit. */
    static final int MAX_MESSAGE_BYTES = 4096;

    private ErrorFrames() {
    }

    public static Frame encode(ByteBufAllocator alloc, long requestId, int op, RpcException error) {
        byte[] message = error.detail().getBytes(StandardCharsets.UTF_8);
        int length = Math.min(message.length, MAX_MESSAGE_BYTES);
        ByteBuf header = alloc.buffer(2 + length);
        header.writeShort(error.code().wire());
        header.writeBytes(message, 0, length);
        return new Frame(requestId, op, Frame.FLAG_RESPONSE | Frame.FLAG_ERROR, header, Unpooled.EMPTY_BUFFER);
    }

    /** The exception an error frame stands for; releases the frame. */
    public static RpcException decode(Frame frame) {
        try {
            ByteBuf header = frame.header();
            if (header.readableBytes() < 2) {
                return new RpcException(ErrorCode.UNKNOWN, "error frame without a code");
            }
            ErrorCode code = ErrorCode.fromWire(header.readUnsignedShort());
            return new RpcException(code, header.toString(StandardCharsets.UTF_8));
        } finally {
            frame.release();
        }
    }
}
