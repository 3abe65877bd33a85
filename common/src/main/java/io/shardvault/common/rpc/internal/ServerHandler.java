package io.shardvault.common.rpc.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal handler of a server connection: turns a request frame into an {@link RpcMessage},
 * hands it to the {@link RequestDispatcher}, and writes the answer or error frame back.
 */
public final class ServerHandler extends SimpleChannelInboundHandler<Frame> {
    private static final Logger LOG = LoggerFactory.getLogger(ServerHandler.class);

    private final RequestDispatcher dispatcher;
    private final ClosedConnectionLog closings;

    /** {@code closings} is shared by every connection of one server, so its throttle spans them. */
    public ServerHandler(RequestDispatcher dispatcher, ClosedConnectionLog closings) {
        super(Frame.class, false);
        this.dispatcher = dispatcher;
        this.closings = closings;
    }


    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
        if (frame.isResponse()) {
            frame.release();
            closings.closing(ctx.channel().remoteAddress(), "a client sent a response frame");
            ctx.close();
            return;
        }
        long requestId = frame.requestId();
        int op = frame.op();
        RpcMessage request = new RpcMessage(op, frame.header(), frame.payload());
        Channel channel = ctx.channel();
        dispatcher.dispatch(request).whenComplete((response, failure) -> {
            Frame answer = failure == null
                    ? new Frame(requestId, op, Frame.FLAG_RESPONSE, response.header(), response.payload())
                    : ErrorFrames.encode(channel.alloc(), requestId, op, RpcException.from(failure));
            channel.writeAndFlush(answer).addListener((ChannelFutureListener) f -> dispatcher.answered());
        });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A refused TLS handshake lands here too: throttled, since anyone who reaches the port can cause it.
        closings.closing(ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
