package io.shardvault.s3.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.shardvault.s3.CredentialStore;
import io.shardvault.s3.ObjectStore;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.internal.auth.AccessKeys;
import io.shardvault.s3.internal.auth.SigV2Verifier;
import io.shardvault.s3.internal.auth.SigV4Verifier;
import java.io.IOException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Everything a connection's handler needs, built once per server. Thread-safe. */
public final class S3Context implements AutoCloseable {
    private final S3ServerConfig config;
    private final S3Metrics metrics;
    private final SslContext sslContext;
    private final ExecutorService workers;
    private final S3Dispatcher dispatcher;
    private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();
    private final AtomicLong requestCounter = new AtomicLong();
    private final String idPrefix;
    private final OpenConnections connections;

    private S3Context(S3ServerConfig config, S3Metrics metrics, SslContext sslContext, ExecutorService workers,
                      S3Dispatcher dispatcher, OpenConnections connections) {
        this.config = config;
        this.metrics = metrics;
        this.sslContext = sslContext;
        this.workers = workers;
        this.dispatcher = dispatcher;
        this.connections = connections;
        this.idPrefix = HexFormat.of().toHexDigits((int) (System.nanoTime() ^ System.identityHashCode(this)))
                .toUpperCase(Locale.ROOT);
    }

    public static S3Context create(S3ServerConfig config, ObjectStore store, CredentialStore credentials,
                                   MeterRegistry registry, Clock clock) throws IOException {
        SslContext ssl = null;
        if (config.tlsEnabled()) {
            ssl = SslContextBuilder.forServer(config.tlsCertificate().toFile(), config.tlsPrivateKey().toFile())
                    .build();
        }
        ThreadPoolExecutor workers = new ThreadPoolExecutor(config.workerThreads(), config.workerThreads(),
                60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(config.maxQueuedRequests()),
                new DefaultThreadFactory("s3-worker", true));
        OpenConnections connections = new OpenConnections();
        S3Metrics metrics = new S3Metrics(registry, connections);
        AccessKeys keys = new AccessKeys(credentials, config.maxClockSkew(), clock);
        SigV4Verifier verifier = new SigV4Verifier(keys, config.region(), config.maxPresignedExpiry(),
                config.sigV2Enabled() ? new SigV2Verifier(keys) : null);
        S3Dispatcher dispatcher = new S3Dispatcher(config, store, verifier, new RequestParser(config.baseDomains()),
                workers, metrics, clock);
        return new S3Context(config, metrics, ssl, workers, dispatcher, connections);
    }

    public S3ServerConfig config() {
        return config;
    }

    S3Metrics metrics() {
        return metrics;
    }

    SslContext sslContext() {
        return sslContext;
    }

    S3Dispatcher dispatcher() {
        return dispatcher;
    }

    /** The connections open now, which closing the server lets finish their answers. */
    public OpenConnections connections() {
        return connections;
    }

    String newRequestId() {
        long n = requestCounter.incrementAndGet();
        // "%08X" without String.format's parsing on every request: eight digits, more past 2^32.
        String digits = n >>> 32 == 0 ? UPPER_HEX.toHexDigits((int) n) : Long.toHexString(n).toUpperCase(Locale.ROOT);
        return idPrefix + digits;
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
