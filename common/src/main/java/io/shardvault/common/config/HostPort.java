package io.shardvault.common.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Network addresses as settings and command-line options write them: {@code host:port},
 * {@code [v6]:port}, or {@code :port} for every interface. The one parser every service uses.
 */
public final class HostPort {
    private HostPort() {
    }

    /**
     * Parses one address; the host is resolved as {@link InetSocketAddress} does.
     *
     * @throws IllegalArgumentException naming the value when it is not host:port with a port in 0..65535
     */
    public static InetSocketAddress parse(String value) {
        String text = value.trim();
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected host:port, got '" + value + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + value + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range in '" + value + "'");
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** Parses a comma-separated list; blank or {@code none} is the empty list. */
    public static List<InetSocketAddress> parseList(String list) {
        List<InetSocketAddress> out = new ArrayList<>();
        if (list.isBlank() || list.trim().equalsIgnoreCase("none")) {
            return out;
        }
        for (String part : list.split(",")) {
            out.add(parse(part));
        }
        return out;
    }
}
