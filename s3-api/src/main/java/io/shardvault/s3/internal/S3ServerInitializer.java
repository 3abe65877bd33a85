package io.shardvault.s3.internal;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * The S3 pipeline, each stage under a name: {@code tls} (when configured) → {@code http} (codec,
 * with the request-line and header-size limits) → {@code idle} → {@code s3} (the terminal
 * {@link S3ServerHandler}). No aggregator: bodies stream.
 */
public final class S3ServerInitializer extends ChannelInitializer<SocketChannel> {
    private final S3Context context;

    public S3ServerInitializer(S3Context context) {
        this.context = context;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        if (context.sslContext() != null) {
            p.addLast("tls", context.sslContext().newHandler(ch.alloc()));
        }
        HttpDecoderConfig decoder = new HttpDecoderConfig()
                .setMaxInitialLineLength(context.config().maxInitialLineBytes())
                .setMaxHeaderSize(context.config().maxHeaderBytes())
                .setMaxChunkSize(64 * 1024);
        p.addLast("http", new HttpServerCodec(decoder));
        p.addLast("idle", new IdleStateHandler(0, 0, context.config().idleTimeout().toMillis(),
                TimeUnit.MILLISECONDS));
        p.addLast("s3", new S3ServerHandler(context));
    }
}
