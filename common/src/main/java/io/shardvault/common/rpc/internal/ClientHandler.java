package io.shardvault.common.rpc.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The terminal handler of a client connection: routes each answer frame to its pending call. */
public final class ClientHandler extends SimpleChannelInboundHandler<Frame> {
    private static final Logger LOG = LoggerFactory.getLogger(ClientHandler.class);

    private final PendingCalls pending;

    public ClientHandler(PendingCalls pending) {
        super(Frame.class, false);
        this.pending = pending;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
        if (!frame.isResponse()) {
            frame.release();
            LOG.warn("closing connection remote={} reason=\"a server sent a request frame\"",
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        long requestId = frame.requestId();
        if (frame.isError()) {
            pending.fail(requestId, ErrorFrames.decode(frame));
            return;
        }
        RpcMessage answer = new RpcMessage(frame.op(), frame.header(), frame.payload());
        if (!pending.complete(requestId, answer)) {
            LOG.debug("late answer dropped id={} remote={}", requestId, ctx.channel().remoteAddress());
            answer.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        pending.failAll(new RpcException(ErrorCode.CONNECTION_CLOSED,
                "connection to " + ctx.channel().remoteAddress() + " closed"));
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("closing connection remote={} reason=\"{}\"", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
