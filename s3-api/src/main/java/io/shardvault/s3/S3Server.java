package io.shardvault.s3;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.shardvault.s3.internal.S3Context;
import io.shardvault.s3.internal.S3ServerInitializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The S3 endpoint: an HTTP(S) server that authenticates requests, decodes them and calls an
 * {@link ObjectStore}. Pipeline: (TLS) → HTTP codec with header limits → idle timeout → one
 * terminal handler that only translates; everything else (SigV4, aws-chunked, checksums, XML,
 * routing) is plain Java run on a worker pool, never on an event loop.
 *
 * <p>Lifecycle: {@link #start} binds and returns a running server; {@link #close} stops accepting,
 * lets the answers in flight end (bounded), closes connections and the worker pool. Thread-safe. Holds no
 * durable state.
 *
 * <p>Metrics (Micrometer, in the registry passed in): {@code s3.requests} timer tagged by
 * {@code operation} and {@code status}; {@code s3.bytes.in} and {@code s3.bytes.out} counters of
 * object bytes; {@code s3.connections} gauge of open connections.
 *
 * <p>Audit: once each request's answer is complete, one event of the {@link #AUDIT_LOGGER} logger
 * whose key/value pairs are the request's audit record (time, request id, access key and account,
 * operation, bucket, key, version id, status, error code, bytes in and out, duration, client address
 * and User-Agent; never a secret, a signature or a query string). Written only where that logger is on.
 */
public final class S3Server implements AutoCloseable {
    /** The SLF4J logger of the audit records. */
    public static final String AUDIT_LOGGER = "shardvault.audit";
    private static final Logger LOG = LoggerFactory.getLogger(S3Server.class);
    /** How long closing waits for answers in flight (see {@link #close}). */
    static final Duration DRAIN_BOUND = Duration.ofSeconds(5);

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup ioGroup;
    private final S3Context context;
    private final Channel serverChannel;

    private S3Server(EventLoopGroup bossGroup, EventLoopGroup ioGroup, S3Context context, Channel serverChannel) {
        this.bossGroup = bossGroup;
        this.ioGroup = ioGroup;
        this.context = context;
        this.serverChannel = serverChannel;
    }

    /** Starts an endpoint on the system clock. */
    public static S3Server start(S3ServerConfig config, ObjectStore store, CredentialStore credentials,
                                 MeterRegistry registry) throws IOException {
        return start(config, store, credentials, registry, Clock.systemUTC());
    }

    /**
     * Starts an endpoint.
     *
     * @param clock the wall clock signatures and presigned URLs are checked against
     * @throws IOException when the port cannot be bound or the TLS files cannot be read
     */
    public static S3Server start(S3ServerConfig config, ObjectStore store, CredentialStore credentials,
                                 MeterRegistry registry, Clock clock) throws IOException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(clock, "clock");
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("s3-accept", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        EventLoopGroup io = new MultiThreadIoEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("s3-io", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        S3Context context = null;
        try {
            context = S3Context.create(config, store, credentials, registry, clock);
            Class<? extends ServerChannel> channelClass =
                    epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(boss, io)
                    .channel(channelClass)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new S3ServerInitializer(context));
            Channel channel = bootstrap.bind(new InetSocketAddress(config.bindHost(), config.port()))
                    .syncUninterruptibly().channel();
            LOG.info("S3 endpoint on {} ({}, {}, region {}, base domains {})", channel.localAddress(),
                    config.tlsEnabled() ? "https" : "http", epoll ? "epoll" : "nio", config.region(),
                    config.baseDomains());
            return new S3Server(boss, io, context, channel);
        } catch (RuntimeException | IOException e) {
            if (context != null) {
                context.close();
            }
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            if (e instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (e instanceof IOException io2) {
                throw io2;
            }
            if (e.getCause() instanceof IOException io3) {
                throw io3;
            }
            throw e;
        }
    }

    /** The bound address (useful with port 0). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Stops accepting; closes idle connections, and busy ones as their answers end, for at most
     * {@link #DRAIN_BOUND}; then closes what is left and stops the worker pool. A coordinator's own close
     * allows this 10 s, so the bound plus the event loops' 2 s each stays below it.
     */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        int cut = context.connections().drain(DRAIN_BOUND);
        if (cut > 0) {
            LOG.warn("S3 endpoint closing: {} answers still in flight after {} s are cut short", cut,
                    DRAIN_BOUND.toSeconds());
        }
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        context.close();
    }
}
