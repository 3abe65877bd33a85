package io.shardvault.common.admin;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.TlsSettings;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * The JDK {@link SSLContext} an HTTPS admin port serves with: the service's cluster certificate and
 * key, read by the same Netty PEM loader as the RPC's TLS ({@code RpcTls}), so the admin port takes the
 * same {@code tls.*} files without a keystore. No client certificate is asked for: a scraper proves
 * itself with the bearer token.
 */
final class AdminHttps {
    private AdminHttps() {
    }

    static SSLContext serverContext(TlsSettings tls) {
        try {
            JdkSslContext context = (JdkSslContext) SslContextBuilder
                    .forServer(tls.certificate().toFile(), tls.key().toFile())
                    .sslProvider(SslProvider.JDK)
                    .build();
            return context.context();
        } catch (SSLException | IllegalArgumentException e) {
            // Netty names the file it could not use; the key's content is never in its message.
            throw new ConfigException("cannot serve the admin port with tls.certificate = " + tls.certificate()
                    + " and tls.key = " + tls.key() + ": " + e.getMessage(), e);
        }
    }
}
