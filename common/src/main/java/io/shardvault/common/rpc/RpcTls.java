package io.shardvault.common.rpc;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.TlsSettings;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mutual TLS for the internal RPC (issue #21): a server context that requires a client certificate,
 * a client context that presents one and checks the server's certificate against the address it
 * dialled (endpoint identification, "HTTPS" rules: a DNS or IP subject alternative name), both with
 * the cluster CA as their only trust anchor. A peer without a certificate from that CA is refused at
 * the handshake, before any frame is read.
 *
 * <p>The engine is OpenSSL (BoringSSL through netty-tcnative) where it loads, else the JDK's; the
 * choice is logged once per process start.
 *
 * <p>Immutable and thread-safe.
 */
public final class RpcTls {
    private static final Logger LOG = LoggerFactory.getLogger(RpcTls.class);

    private final SslContext server;
    private final SslContext client;
    private final String engine;

    private RpcTls(SslContext server, SslContext client, String engine) {
        this.server = server;
        this.client = client;
        this.engine = engine;
    }

    /** The TLS implementations offered. */
    public enum Engine {
        /** BoringSSL through netty-tcnative: Netty's OpenSSL provider. */
        OPENSSL(SslProvider.OPENSSL),
        /** The JDK's SSLEngine. */
        JDK(SslProvider.JDK);

        private final SslProvider provider;

        Engine(SslProvider provider) {
            this.provider = provider;
        }

        /** OpenSSL where netty-tcnative loads, else the JDK's. */
        public static Engine best() {
            return OpenSsl.isAvailable() ? OPENSSL : JDK;
        }
    }

    /** Contexts from {@code settings} on the best engine available. */
    public static RpcTls from(TlsSettings settings) {
        return from(settings, Engine.best());
    }

    /**
     * Contexts from {@code settings} on {@code engine} (the RPC benchmark compares engines).
     *
     * @throws ConfigException when a PEM file cannot be read or does not hold what its key says
     */
    public static RpcTls from(TlsSettings settings, Engine engine) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(engine, "engine");
        try {
            SslContext server = SslContextBuilder.forServer(settings.certificate().toFile(), settings.key().toFile())
                    .trustManager(settings.ca().toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .sslProvider(engine.provider)
                    .build();
            SslContext client = clientBuilder(settings.ca(), engine)
                    .keyManager(settings.certificate().toFile(), settings.key().toFile())
                    .build();
            String description = describe(engine);
            LOG.info("rpc tls engine={} certificate={} ca={}", description, settings.certificate(), settings.ca());
            return new RpcTls(server, client, description);
        } catch (SSLException | IllegalArgumentException e) {
            // Netty names the file it could not use; the key's content is never in its message.
            throw new ConfigException("cannot use the TLS files (tls.certificate = " + settings.certificate()
                    + ", tls.key = " + settings.key() + ", tls.ca = " + settings.ca() + "): " + e.getMessage(), e);
        }
    }

    /**
     * A client that trusts {@code ca} and shows no certificate of its own: what every server of the
     * cluster refuses (tests and probes use it to check that). It cannot serve.
     */
    public static RpcTls clientWithoutCertificate(Path ca) {
        try {
            return new RpcTls(null, clientBuilder(ca, Engine.best()).build(), "client without a certificate");
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException("cannot use the CA file " + ca + ": " + e.getMessage(), e);
        }
    }

    private static SslContextBuilder clientBuilder(Path ca, Engine engine) {
        return SslContextBuilder.forClient()
                .trustManager(ca.toFile())
                .endpointIdentificationAlgorithm("HTTPS")
                .sslProvider(engine.provider);
    }

    /** "openssl (BoringSSL ...)", or "jdk" with the reason OpenSSL is not used. */
    public String engine() {
        return engine;
    }

    SslHandler newServerHandler(ByteBufAllocator alloc) {
        if (server == null) {
            throw new IllegalStateException("TLS contexts of " + engine + " cannot serve");
        }
        return server.newHandler(alloc);
    }

    /** A handler whose handshake checks the server's certificate against {@code host}, as dialled. */
    SslHandler newClientHandler(ByteBufAllocator alloc, String host, int port) {
        return client.newHandler(alloc, host, port);
    }

    private static String describe(Engine engine) {
        if (engine == Engine.OPENSSL) {
            return "openssl (" + OpenSsl.versionString() + ")";
        }
        return OpenSsl.isAvailable() ? "jdk (chosen)" : "jdk (openssl unavailable: " + OpenSsl.unavailabilityCause() + ")";
    }
}
