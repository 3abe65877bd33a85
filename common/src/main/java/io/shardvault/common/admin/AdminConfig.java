package io.shardvault.common.admin;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.ListenerGuard;
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
        InetSocketAddress address;
        try {
            address = HostPort.parse(bind);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(AdminConfigKeys.BIND.name() + ": " + e.getMessage());
        }
        // Plain HTTP: metrics and health are for this host's agents unless the operator says otherwise.
        ListenerGuard.from(settings).admit(AdminConfigKeys.BIND.name(), address, false);
        return new AdminConfig(address, settings.get(AdminConfigKeys.THREADS));
    }

    public static AdminConfig defaults() {
        return from(Settings.empty());
    }

    /** The same options listening elsewhere. */
    public AdminConfig withBind(InetSocketAddress newBind) {
        return new AdminConfig(newBind, threads);
    }

}
