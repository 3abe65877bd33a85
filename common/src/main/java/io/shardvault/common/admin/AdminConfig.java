package io.shardvault.common.admin;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * The options of an admin HTTP server.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>bind</td><td>127.0.0.1:0</td><td>where to listen; port 0 picks a free port</td></tr>
 *   <tr><td>threads</td><td>2</td><td>threads answering requests</td></tr>
 * </table>
 */
public record AdminConfig(InetSocketAddress bind, int threads) {
    public AdminConfig {
        Objects.requireNonNull(bind, "bind");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
    }

    public static AdminConfig from(Settings settings) {
        String bind = settings.get(AdminConfigKeys.BIND);
        try {
            return new AdminConfig(parseHostPort(bind), settings.get(AdminConfigKeys.THREADS));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(AdminConfigKeys.BIND.name() + ": " + e.getMessage());
        }
    }

    public static AdminConfig defaults() {
        return from(Settings.empty());
    }

    /** The same options listening elsewhere. */
    public AdminConfig withBind(InetSocketAddress newBind) {
        return new AdminConfig(newBind, threads);
    }

    /** Parses {@code host:port}, {@code [v6]:port} or {@code :port} (all interfaces), without resolving names. */
    public static InetSocketAddress parseHostPort(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected host:port, got '" + value + "'");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + value + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range in '" + value + "'");
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }
}
