package io.shardvault.common.rpc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loops and socket type shared by every RPC server and client of a process: epoll
 * where Linux offers it, NIO otherwise. One process that hosts twenty pods shares one transport.
 * With a TLS identity ({@link RpcTransportConfig#tls()}), every server and client on it speaks
 * mutual TLS ({@link RpcTls}).
 *
 * <p>Thread-safe. The creator closes it, after the servers and clients that use it.
 */
public final class RpcTransport implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RpcTransport.class);

    private final EventLoopGroup group;
    private final boolean nativeTransport;
    private final String description;
    private final RpcTls tls;

    private RpcTransport(EventLoopGroup group, boolean nativeTransport, String description, RpcTls tls) {
        this.group = group;
        this.nativeTransport = nativeTransport;
        this.description = description;
        this.tls = tls;
    }

    /**
     * A transport with the TLS identity of {@code config}, if any.
     *
     * @throws io.shardvault.common.config.ConfigException when the TLS files cannot be used
     */
    public static RpcTransport create(RpcTransportConfig config) {
        return create(config, config.tls().map(RpcTls::from).orElse(null));
    }

    /** A transport whose servers and clients use {@code tls}, or plaintext when it is null. */
    public static RpcTransport create(RpcTransportConfig config, RpcTls tls) {
        boolean useEpoll = config.nativeTransport() && Epoll.isAvailable();
        String description;
        if (useEpoll) {
            description = "epoll";
        } else if (!config.nativeTransport()) {
            description = "nio (native transport turned off)";
        } else {
            description = "nio (epoll unavailable: " + Epoll.unavailabilityCause() + ")";
        }
        IoHandlerFactory factory = useEpoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(config.ioThreads(),
                new DefaultThreadFactory("rpc-io", true), factory);
        LOG.info("rpc transport={} ioThreads={} tls={}", description, config.ioThreads(),
                tls == null ? "off" : tls.engine());
        return new RpcTransport(group, useEpoll, description, tls);
    }

    /** Whether servers and clients on this transport speak mutual TLS. */
    public boolean isTls() {
        return tls != null;
    }

    /** The TLS contexts, or null for plaintext. */
    RpcTls tls() {
        return tls;
    }

    /** True when the epoll transport is in use. */
    public boolean isNative() {
        return nativeTransport;
    }

    /** "epoll", or "nio" with the reason epoll is not used. */
    public String description() {
        return description;
    }

    EventLoopGroup group() {
        return group;
    }

    Class<? extends ServerChannel> serverChannelClass() {
        return nativeTransport ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends SocketChannel> channelClass() {
        return nativeTransport ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** Stops the event loops; servers and clients using them must be closed first. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
