package io.shardvault.common.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameCodecTest {
    private static ByteBuf encode(Frame frame) {
        EmbeddedChannel out = new EmbeddedChannel(FrameEncoder.INSTANCE);
        assertThat(out.writeOutbound(frame)).isTrue();
        ByteBuf wire = Unpooled.buffer();
        for (ByteBuf part; (part = out.readOutbound()) != null; ) {
            wire.writeBytes(part);
            part.release();
        }
        assertThat(out.finish()).isFalse();
        return wire;
    }

    @Test
    void decodesWhatItEncodesEvenOneByteAtATime() {
        ByteBuf wire = encode(new Frame(77, 0x0101, 0, Unpooled.copiedBuffer("hdr", StandardCharsets.UTF_8),
                Unpooled.copiedBuffer("payload bytes", StandardCharsets.UTF_8)));
        assertThat(wire.readableBytes()).isEqualTo(20 + 3 + 13);
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(1024, ClosedConnectionLog.perMinute()));
        while (wire.isReadable()) {
            in.writeInbound(wire.readRetainedSlice(1));
        }
        wire.release();
        Frame frame = in.readInbound();
        assertThat(frame.requestId()).isEqualTo(77);
        assertThat(frame.op()).isEqualTo(0x0101);
        assertThat(frame.isResponse()).isFalse();
        assertThat(frame.header().toString(StandardCharsets.UTF_8)).isEqualTo("hdr");
        assertThat(frame.payload().toString(StandardCharsets.UTF_8)).isEqualTo("payload bytes");
        frame.release();
        assertThat(in.finish()).isFalse();
    }

    @Test
    void decodesBackToBackFramesInOneRead() {
        ByteBuf wire = Unpooled.buffer();
        for (int i = 0; i < 3; i++) {
            ByteBuf one = encode(new Frame(i, 9, Frame.FLAG_RESPONSE, Unpooled.EMPTY_BUFFER,
                    Unpooled.wrappedBuffer(new byte[i * 10])));
            wire.writeBytes(one);
            one.release();
        }
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(1024, ClosedConnectionLog.perMinute()));
        in.writeInbound(wire);
        for (int i = 0; i < 3; i++) {
            Frame frame = in.readInbound();
            assertThat(frame.requestId()).isEqualTo(i);
            assertThat(frame.isResponse()).isTrue();
            assertThat(frame.payload().readableBytes()).isEqualTo(i * 10);
            frame.release();
        }
        assertThat(in.finish()).isFalse();
    }

    @Test
    void closesOnAFrameOverTheLimitBeforeItsBodyArrives() {
        ByteBuf wire = encode(new Frame(1, 1, 0, Unpooled.EMPTY_BUFFER, Unpooled.wrappedBuffer(new byte[2000])));
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(1024, ClosedConnectionLog.perMinute()));
        in.writeInbound(wire.readRetainedSlice(20));
        assertThat(in.isOpen()).isFalse();
        wire.release();
        Object nothing = in.readInbound();
        assertThat(nothing).isNull();
        in.finishAndReleaseAll();
    }

    @Test
    void closesOnUnknownFlags() {
        ByteBuf wire = encode(new Frame(1, 1, 0x80, Unpooled.EMPTY_BUFFER, Unpooled.EMPTY_BUFFER));
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(1024, ClosedConnectionLog.perMinute()));
        in.writeInbound(wire);
        assertThat(in.isOpen()).isFalse();
        in.finishAndReleaseAll();
    }

    @Test
    void errorFramesCarryCodeAndMessage() {
        Frame error = ErrorFrames.encode(Unpooled.buffer(0).alloc(), 5, 3,
                new RpcException(ErrorCode.STASH_FULL, "budget 1 GiB reached"));
        assertThat(error.isError()).isTrue();
        RpcException decoded = ErrorFrames.decode(error);
        assertThat(decoded.code()).isEqualTo(ErrorCode.STASH_FULL);
        assertThat(decoded.detail()).isEqualTo("budget 1 GiB reached");
        assertThat(error.refCnt()).isZero();
    }
}
