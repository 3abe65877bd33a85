package io.shardvault.common.jmx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.server.RMIServerSocketFactory;
import javax.net.ssl.SSLContext;

/**
 * Server sockets on one address (the default RMI factory listens on every interface), with TLS
 * when an {@link SSLContext} is given. One instance serves both the registry and the connector,
 * which is what lets RMI put them on the same port. Thread-safe.
 */
final class BoundServerSocketFactory implements RMIServerSocketFactory {
    private final InetAddress address;
    private final SSLContext ssl;

    BoundServerSocketFactory(InetAddress address, SSLContext ssl) {
        this.address = address;
        this.ssl = ssl;
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        if (ssl == null) {
            return new ServerSocket(port, 50, address);
        }
        return ssl.getServerSocketFactory().createServerSocket(port, 50, address);
    }
}
