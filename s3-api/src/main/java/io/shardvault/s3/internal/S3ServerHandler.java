package io.shardvault.s3.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal handler: turns a request head into an {@link Exchange} and hands it to the
 * {@link S3Dispatcher} (which runs off the event loop), feeds body pieces to the exchange, and
 * relays writability and connection events. One request at a time per connection; pipelined
 * requests wait in a backlog until the current answer is out. Not shared between channels.
 */
public final class S3ServerHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(S3ServerHandler.class);

    private final S3Context context;
    private final ArrayDeque<Object> backlog = new ArrayDeque<>();
    /** Written on the event loop only; volatile for the thread that closes the server ({@link OpenConnections}). */
    private volatile Exchange current;
    private volatile Channel channel;

    S3ServerHandler(S3Context context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        context.connections().opened(this);
        ctx.read();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (current != null && (!(msg instanceof HttpContent) || current.body().ended())) {
            backlog.add(msg);
            return;
        }
        dispatch(ctx, msg);
    }

    private void dispatch(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest req) {
            Exchange ex = new Exchange(ctx, req, context.newRequestId(), done -> exchangeDone(ctx, done), context.metrics());
            current = ex;
            if (req.decoderResult().isFailure()) {
                ReferenceCountUtil.release(msg);
                ex.body().discard();
                ex.respondError(decoderError(req.decoderResult().cause()));
            } else if (req.headers().size() > context.config().maxHeaderCount()) {
                ReferenceCountUtil.release(msg);
                ex.respondError(new S3Error("RequestHeaderSectionTooLarge",
                        HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                        "Your request header section exceeds the maximum allowed number of headers."));
            } else {
                if (msg instanceof HttpContent c) {
                    current.body().offer(c);
                }
                context.dispatcher().dispatch(ex);
            }
        } else if (msg instanceof HttpContent c) {
            if (current == null) {
                c.release();
            } else {
                current.body().offer(c);
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private static S3Error decoderError(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return new S3Error("RequestURITooLong", HttpResponseStatus.REQUEST_URI_TOO_LONG,
                    "The request line is too long.");
        }
        if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            return new S3Error("RequestHeaderSectionTooLarge", HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                    "Your request header section exceeds the maximum allowed size.");
        }
        return S3Error.badRequest("BadRequest", "The HTTP request could not be parsed.");
    }

    /** Closes the connection unless a request is in progress on it; false if one is. Any thread. */
    boolean closeIfIdle() {
        if (current != null) {
            return false;
        }
        Channel c = channel;
        if (c != null) {
            c.close();
        }
        return true;
    }

    /** On the event loop: the exchange's answer is out and the connection stays open. */
    void exchangeDone(ChannelHandlerContext ctx, Exchange ex) {
        if (current != ex) {
            return;
        }
        current = null;
        while (current == null && !backlog.isEmpty()) {
            dispatch(ctx, backlog.poll());
        }
        while (current != null && !backlog.isEmpty() && backlog.peek() instanceof HttpContent
                && !current.body().ended()) {
            dispatch(ctx, backlog.poll());
        }
        if (current == null) {
            if (context.connections().draining()
                    || ctx.channel() instanceof DuplexChannel duplex && duplex.isInputShutdown()) {
                ctx.close();
            } else {
                ctx.read();
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (current != null) {
            current.writabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else if (evt instanceof ChannelInputShutdownEvent) {
            if (current == null) {
                ctx.close();
            } else {
                current.body().fail(S3Error.incompleteBody(
                        "You did not provide the number of bytes specified by the Content-Length HTTP header."));
            }
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        context.connections().closed(this);
        if (current != null) {
            current.connectionClosed();
        }
        for (Object o; (o = backlog.poll()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing {} after {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
