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

    /** Contexts from {@code settings} on the best engine available. */
    public static RpcTls from(TlsSettings settings) {
        return from(settings, bestProvider());
    }

    /**
     * Contexts from {@code settings} on {@code provider} (the RPC benchmark compares engines).
     *
     * @throws ConfigException when a PEM file cannot be read or does not hold what its key says
     */
    public static RpcTls from(TlsSettings settings, SslProvider provider) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(provider, "provider");
        try {
            SslContext server = SslContextBuilder.forServer(settings.certificate().toFile(), settings.key().toFile())
                    .trustManager(settings.ca().toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .sslProvider(provider)
                    .build();
            SslContext client = SslContextBuilder.forClient()
                    .keyManager(settings.certificate().toFile(), settings.key().toFile())
                    .trustManager(settings.ca().toFile())
                    .endpointIdentificationAlgorithm("HTTPS")
                    .sslProvider(provider)
                    .build();
            String engine = describe(provider);
            LOG.info("rpc tls engine={} certificate={} ca={}", engine, settings.certificate(), settings.ca());
            return new RpcTls(server, client, engine);
        } catch (SSLException | IllegalArgumentException e) {
            // Netty names the file it could not use; the key's content is never in its message.
            throw new ConfigException("cannot use the TLS files (tls.certificate = " + settings.certificate()
                    + ", tls.key = " + settings.key() + ", tls.ca = " + settings.ca() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Contexts built elsewhere: tests use this for peers the cluster must refuse (no certificate, a
     * foreign CA). {@code server} must require client authentication for the listener to be mutual TLS.
     */
    public static RpcTls of(SslContext server, SslContext client) {
        return new RpcTls(Objects.requireNonNull(server, "server"), Objects.requireNonNull(client, "client"),
                "given contexts");
    }

    /** OpenSSL where netty-tcnative loads, else the JDK's. */
    public static SslProvider bestProvider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** "openssl (BoringSSL ...)", or "jdk" with the reason OpenSSL is not used. */
    public String engine() {
        return engine;
    }

    SslHandler newServerHandler(ByteBufAllocator alloc) {
        return server.newHandler(alloc);
    }

    /** A handler whose handshake checks the server's certificate against {@code host}, as dialled. */
    SslHandler newClientHandler(ByteBufAllocator alloc, String host, int port) {
        return client.newHandler(alloc, host, port);
    }

    private static String describe(SslProvider provider) {
        if (provider != SslProvider.JDK) {
            return "openssl (" + OpenSsl.versionString() + ")";
        }
        return OpenSsl.isAvailable() ? "jdk (chosen)" : "jdk (openssl unavailable: " + OpenSsl.unavailabilityCause() + ")";
    }
}
