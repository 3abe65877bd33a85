package io.shardvault.common.admin;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.ListenerGuard;
import io.shardvault.common.config.OwnerOnlyFile;
import io.shardvault.common.config.Settings;
import io.shardvault.common.config.TlsSettings;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * The options of an admin HTTP server.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>bind</td><td>127.0.0.1:0</td><td>where to listen; port 0 picks a free port</td></tr>
 *   <tr><td>threads</td><td>2</td><td>threads answering requests</td></tr>
 *   <tr><td>tls</td><td>none</td><td>the cluster TLS identity to serve HTTPS with; none: plain HTTP</td></tr>
 *   <tr><td>token</td><td>none</td><td>the bearer token every request must carry; none: no authentication</td></tr>
 * </table>
 */
public record AdminConfig(InetSocketAddress bind, int threads, Optional<TlsSettings> tls, Optional<BearerToken> token) {
    private static final String PROTECTION = "TLS and a bearer token (" + AdminConfigKeys.TLS.name() + " = true with "
            + "the tls.* settings, and " + AdminConfigKeys.TOKEN_FILE.name() + " or " + AdminConfigKeys.TOKEN.name()
            + ")";

    public AdminConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(token, "token");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
    }

    /**
     * Resolves the admin settings, reading the token file.
     *
     * @throws ConfigException naming the key when a value is invalid, the token is unreadable or
     *         readable by others, or the port would listen beyond loopback unprotected
     */
    public static AdminConfig from(Settings settings) {
        String bind = settings.get(AdminConfigKeys.BIND);
        InetSocketAddress address;
        try {
            address = HostPort.parse(bind);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(AdminConfigKeys.BIND.name() + ": " + e.getMessage());
        }
        Optional<TlsSettings> tls = Optional.empty();
        if (settings.get(AdminConfigKeys.TLS)) {
            tls = Optional.of(TlsSettings.from(settings).orElseThrow(() -> new ConfigException(
                    AdminConfigKeys.TLS.name() + " = true serves the cluster certificate: set tls.certificate, "
                            + "tls.key and tls.ca")));
        }
        Optional<BearerToken> token = token(settings);
        // Metrics and health are for this host's agents unless the operator protects them.
        ListenerGuard.from(settings).admit(AdminConfigKeys.BIND.name(), address,
                tls.isPresent() && token.isPresent(), PROTECTION);
        return new AdminConfig(address, settings.get(AdminConfigKeys.THREADS), tls, token);
    }

    public static AdminConfig defaults() {
        return from(Settings.empty());
    }

    /** The same options listening elsewhere. */
    public AdminConfig withBind(InetSocketAddress newBind) {
        return new AdminConfig(newBind, threads, tls, token);
    }

    private static Optional<BearerToken> token(Settings settings) {
        String file = AdminConfigKeys.TOKEN_FILE.name();
        String inline = AdminConfigKeys.TOKEN.name();
        if (settings.isSet(file) && settings.isSet(inline)) {
            throw new ConfigException("set one of " + file + " and " + inline + ", not both");
        }
        if (settings.isSetOnCommandLine(inline)) {
            throw new ConfigException(inline + " is set on the command line, where any local user's ps shows it: "
                    + "put it in " + file + " or in the environment (" + inline + " = ${?VARIABLE} in the config file)");
        }
        try {
            if (settings.isSet(inline)) {
                return Optional.of(BearerToken.of(settings.get(AdminConfigKeys.TOKEN)));
            }
            if (settings.isSet(file)) {
                return Optional.of(BearerToken.of(OwnerOnlyFile.read(file, settings.get(AdminConfigKeys.TOKEN_FILE))));
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException((settings.isSet(inline) ? inline : file) + ": " + e.getMessage());
        }
        return Optional.empty();
    }
}
