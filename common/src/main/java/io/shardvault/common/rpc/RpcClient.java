package io.shardvault.common.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.internal.ClientConnection;
import io.shardvault.common.rpc.internal.ClientHandler;
import io.shardvault.common.rpc.internal.ClosedConnectionLog;
import io.shardvault.common.rpc.internal.FrameDecoder;
import io.shardvault.common.rpc.internal.FrameEncoder;
import io.shardvault.common.rpc.internal.PeerPool;
import io.shardvault.common.rpc.internal.PendingCalls;
import io.shardvault.common.rpc.internal.RpcFlushes;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Calls RPC servers. Connections are opened on first use, pooled per peer, shared by concurrent
 * calls and reopened after they break. Every failure reaches the caller as an
 * {@link RpcException} through the returned future.
 *
 * <p>Thread-safe. After {@link #close()} every call fails with {@code SHUTTING_DOWN}.
 */
public final class RpcClient implements AutoCloseable {
    private final RpcTransport transport;
    private final RpcClientConfig config;
    private final RpcMetrics metrics;
    private final ConcurrentMap<InetSocketAddress, PeerPool> peers = new ConcurrentHashMap<>();
    private final ClosedConnectionLog closings = ClosedConnectionLog.perMinute();
    private volatile boolean closed;

    private RpcClient(RpcTransport transport, RpcClientConfig config, RpcMetrics metrics) {
        this.transport = transport;
        this.config = config;
        this.metrics = metrics;
    }

    /** A client that records no meters. */
    public static RpcClient create(RpcTransport transport, RpcClientConfig config) {
        return create(transport, config, RpcMetrics.none());
    }

    /** A client timing every call in {@code metrics} ({@code shardvault.rpc.client.calls}). */
    public static RpcClient create(RpcTransport transport, RpcClientConfig config, RpcMetrics metrics) {
        return new RpcClient(Objects.requireNonNull(transport, "transport"), Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(metrics, "metrics"));
    }

    /** Calls {@code peer} with the configured request timeout. */
    public CompletableFuture<RpcMessage> call(InetSocketAddress peer, RpcMessage request) {
        return call(peer, request, config.requestTimeout());
    }

    /**
     * Sends {@code request} to {@code peer}, taking ownership of it, and returns the answer, which
     * the caller must close.
     */
    public CompletableFuture<RpcMessage> call(InetSocketAddress peer, RpcMessage request, Duration timeout) {
        if (metrics == RpcMetrics.none()) {
            return send(peer, request, timeout);
        }
        int op = request.op();
        long start = System.nanoTime();
        CompletableFuture<RpcMessage> answer = send(peer, request, timeout);
        answer.whenComplete((response, failure) ->
                metrics.recordClientCall(op, peer, failure, System.nanoTime() - start));
        return answer;
    }

    private CompletableFuture<RpcMessage> send(InetSocketAddress peer, RpcMessage request, Duration timeout) {
        if (closed) {
            request.close();
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.SHUTTING_DOWN, "client is closed"));
        }
        long size = 20L + request.header().readableBytes() + request.payload().readableBytes();
        if (size > config.maxFrameBytes()) {
            request.close();
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.BAD_REQUEST,
                    "request of " + size + " bytes exceeds rpc.maxFrameBytes=" + config.maxFrameBytes()));
        }
        PeerPool pool = peers.computeIfAbsent(peer,
                p -> new PeerPool(config.connectionsPerPeer(), () -> connect(p)));
        CompletableFuture<ClientConnection> connection = pool.acquire();
        if (connection.isDone() && !connection.isCompletedExceptionally()) {
            return connection.join().send(request, timeout);
        }
        return connection.handle((c, failure) -> {
            if (failure != null) {
                request.close();
                return CompletableFuture.<RpcMessage>failedFuture(failure);
            }
            return c.send(request, timeout);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<ClientConnection> connect(InetSocketAddress peer) {
        PendingCalls pending = new PendingCalls();
        Bootstrap bootstrap = new Bootstrap()
                .group(transport.group())
                .channel(transport.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        config.connectTimeout().toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (transport.tls() != null) {
                            ch.pipeline().addLast("tls", transport.tls().newClientHandler(ch.alloc(),
                                    peer.getHostString(), peer.getPort()));
                        }
                        ch.pipeline()
                                .addLast("flushConsolidation", RpcFlushes.consolidating())
                                .addLast("frameDecoder", new FrameDecoder(config.maxFrameBytes(), closings))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("handler", new ClientHandler(pending));
                    }
                });
        CompletableFuture<ClientConnection> result = new CompletableFuture<>();
        ChannelFuture connecting = bootstrap.connect(peer);
        connecting.addListener(f -> {
            if (f.isSuccess()) {
                SslHandler tls = connecting.channel().pipeline().get(SslHandler.class);
                if (tls == null) {
                    result.complete(new ClientConnection(connecting.channel(), pending));
                    return;
                }
                // Usable once the server's certificate is verified; a refused handshake fails the calls.
                tls.handshakeFuture().addListener(h -> {
                    if (h.isSuccess()) {
                        result.complete(new ClientConnection(connecting.channel(), pending));
                    } else {
                        connecting.channel().close();
                        result.completeExceptionally(new RpcException(ErrorCode.UNREACHABLE,
                                "TLS handshake with " + peer + " failed: " + h.cause(), h.cause()));
                    }
                });
            } else {
                result.completeExceptionally(new RpcException(ErrorCode.UNREACHABLE,
                        "cannot connect to " + peer + ": " + f.cause(), f.cause()));
            }
        });
        return result;
    }

    /** Stops taking calls, waits for the calls in flight (up to the drain timeout), then closes every connection. */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + config.drainTimeout().toNanos();
        try {
            for (PeerPool pool : peers.values()) {
                for (ClientConnection connection : pool.connections()) {
                    connection.pending().awaitEmpty(deadline);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (PeerPool pool : peers.values()) {
            for (ClientConnection connection : pool.connections()) {
                connection.close();
            }
        }
    }
}
