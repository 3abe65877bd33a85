package io.shardvault.common.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.shardvault.common.rpc.internal.ClosedConnectionLog;
import io.shardvault.common.rpc.internal.FrameDecoder;
import io.shardvault.common.rpc.internal.FrameEncoder;
import io.shardvault.common.rpc.internal.RequestDispatcher;
import io.shardvault.common.rpc.internal.RpcFlushes;
import io.shardvault.common.rpc.internal.ServerHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listening RPC server. Requests are decoded on the transport's event loops and handled on the
 * server's own bounded worker pool; a full pool answers {@code BUSY}.
 *
 * <pre>
 *  start() ──▶ SERVING ──close()──▶ DRAINING ──(in-flight done, or drain timeout)──▶ CLOSED
 * </pre>
 * While draining, the listening socket is closed, new requests on open connections are answered
 * {@code SHUTTING_DOWN}, and requests already running finish and are answered.
 *
 * <p>Thread-safe.
 */
public final class RpcServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

    private final RpcServerConfig config;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final RequestDispatcher dispatcher;
    private final ThreadPoolExecutor workers;
    private final InetSocketAddress localAddress;
    private boolean closed;

    private RpcServer(RpcServerConfig config, Channel serverChannel, ChannelGroup connections,
                      RequestDispatcher dispatcher, ThreadPoolExecutor workers) {
        this.config = config;
        this.serverChannel = serverChannel;
        this.connections = connections;
        this.dispatcher = dispatcher;
        this.workers = workers;
        this.localAddress = (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Binds and starts serving.
     *
     * @param bindAddress where to listen; port 0 picks a free port (see {@link #localAddress()})
     * @throws IOException when the address cannot be bound
     */
    public static RpcServer start(RpcTransport transport, RpcServerConfig config, InetSocketAddress bindAddress,
                                  RpcHandler handler) throws IOException {
        return start(transport, config, bindAddress, handler, RpcMetrics.none());
    }

    /**
     * Binds and starts serving, timing every request in {@code metrics}
     * ({@code shardvault.rpc.server.requests}).
     *
     * @param bindAddress where to listen; port 0 picks a free port (see {@link #localAddress()})
     * @throws IOException when the address cannot be bound
     */
    public static RpcServer start(RpcTransport transport, RpcServerConfig config, InetSocketAddress bindAddress,
                                  RpcHandler handler, RpcMetrics metrics) throws IOException {
        Objects.requireNonNull(metrics, "metrics");
        ThreadPoolExecutor workers = new ThreadPoolExecutor(config.workerThreads(), config.workerThreads(),
                60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(config.maxQueuedRequests()),
                new DefaultThreadFactory("rpc-worker", true), new ThreadPoolExecutor.AbortPolicy());
        RequestDispatcher dispatcher = new RequestDispatcher(handler, workers, metrics);
        ClosedConnectionLog closings = ClosedConnectionLog.perMinute();
        ChannelGroup connections = new DefaultChannelGroup("rpc-connections", GlobalEventExecutor.INSTANCE);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.group())
                .channel(transport.serverChannelClass())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        if (transport.tls() != null) {
                            // First: nothing is decoded before the client's certificate is verified.
                            ch.pipeline().addLast("tls", transport.tls().newServerHandler(ch.alloc()));
                        }
                        ch.pipeline()
                                .addLast("flushConsolidation", RpcFlushes.consolidating())
                                .addLast("frameDecoder", new FrameDecoder(config.maxFrameBytes(), closings))
                                .addLast("frameEncoder", FrameEncoder.INSTANCE)
                                .addLast("handler", new ServerHandler(dispatcher, closings));
                    }
                });
        io.netty.channel.ChannelFuture bound = bootstrap.bind(bindAddress).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            workers.shutdownNow();
            throw new IOException("cannot listen on " + bindAddress + ": " + bound.cause(), bound.cause());
        }
        RpcServer server = new RpcServer(config, bound.channel(), connections, dispatcher, workers);
        LOG.info("rpc server listening address={} transport={} tls={}", server.localAddress, transport.description(),
                transport.isTls() ? "mutual" : "off");
        return server;
    }

    /** The bound address, with the real port when 0 was asked for. */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /** Client connections currently open. */
    public int openConnections() {
        return connections.size();
    }

    /** Requests received and not yet answered. */
    public int inFlight() {
        return dispatcher.inFlight();
    }

    /** Stops accepting, drains in-flight requests (up to the drain timeout), then closes every connection. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        serverChannel.close().awaitUninterruptibly();
        dispatcher.startDraining();
        try {
            if (!dispatcher.awaitDrained(config.drainTimeout())) {
                LOG.warn("rpc server address={} closed with requests unanswered after drainTimeout={}",
                        localAddress, config.drainTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connections.close().awaitUninterruptibly();
        workers.shutdown();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("rpc server closed address={}", localAddress);
    }
}
