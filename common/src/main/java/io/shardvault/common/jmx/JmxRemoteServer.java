package io.shardvault.common.jmx;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.rmi.AlreadyBoundException;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.management.MBeanServer;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MBean server served remotely over RMI, the way JConsole and VisualVM connect: an RMI registry
 * and the RMI connector on one fixed port of one address, password authentication through a
 * {@link javax.management.remote.JMXAuthenticator}, and TLS (registry included) when a keystore is
 * configured. Clients connect to {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}.
 *
 * <pre>
 *  start() ──▶ SERVING ──close()──▶ connector stopped, registry unexported ──▶ CLOSED
 * </pre>
 *
 * <p>RMI stubs carry the host clients should dial: unless {@code java.rmi.server.hostname} is set,
 * it is set to the bind host (not to a wildcard) before the first export, for the whole process.
 *
 * <p>Thread-safe.
 */
public final class JmxRemoteServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JmxRemoteServer.class);
    private static final String HOSTNAME_PROPERTY = "java.rmi.server.hostname";

    private final JMXConnectorServer connector;
    private final Registry registry;
    private final InetSocketAddress address;
    private final JMXServiceURL url;
    private final boolean tls;

    private JmxRemoteServer(JMXConnectorServer connector, Registry registry, InetSocketAddress address,
                            JMXServiceURL url, boolean tls) {
        this.connector = connector;
        this.registry = registry;
        this.address = address;
        this.url = url;
        this.tls = tls;
    }

    /** Starts serving {@code server} when {@code config} enables it; empty otherwise. */
    public static Optional<JmxRemoteServer> startIfEnabled(JmxRemoteConfig config, MBeanServer server)
            throws IOException {
        return config.enabled() ? Optional.of(start(config, server)) : Optional.empty();
    }

    /** Starts serving {@code server}; {@code config} must be enabled. */
    public static JmxRemoteServer start(JmxRemoteConfig config, MBeanServer server) throws IOException {
        if (!config.enabled()) {
            throw new IllegalArgumentException("remote JMX is not enabled");
        }
        InetSocketAddress bind = config.bind();
        if (bind.isUnresolved()) {
            throw new IOException("cannot resolve the remote JMX host " + bind.getHostString());
        }
        String host = bind.getAddress().isAnyLocalAddress() ? null : bind.getHostString();
        if (host != null && System.getProperty(HOSTNAME_PROPERTY) == null) {
            System.setProperty(HOSTNAME_PROPERTY, host);
        }
        SSLContext ssl = config.keystore().isPresent() ? sslContext(config) : null;
        BoundServerSocketFactory serverSockets = new BoundServerSocketFactory(bind.getAddress(), ssl);
        RMIClientSocketFactory clientSockets = ssl == null ? null : new SslRMIClientSocketFactory();
        int port = bind.getPort();

        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnectorServer.AUTHENTICATOR, new PasswordAuthenticator(config.users()));
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, serverSockets);
        // Only a user name and password may be deserialized from an unauthenticated client.
        env.put("jmx.remote.rmi.server.credentials.filter.pattern", "java.lang.String;!*");
        if (clientSockets != null) {
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, clientSockets);
        }
        String dial = (host == null ? "localhost" : hostForUrl(host)) + ":" + port;
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + dial + "/jmxrmi");

        Registry registry = null;
        JMXConnectorServer connector = null;
        try {
            registry = LocateRegistry.createRegistry(port, clientSockets, serverSockets);
            RMIJRMPServerImpl rmiServer = new RMIJRMPServerImpl(port, clientSockets, serverSockets, env);
            // No JNDI name in the connector's own URL: started so, it binds its stub nowhere, and the stub goes
            // into the registry by a call on the registry object in this JVM. Bound through JNDI instead, it
            // would dial its own registry as a TLS client, trusting the JVM's default trust store, which need
            // not (and for a self-signed certificate does not) hold the server's own certificate.
            connector = new RMIConnectorServer(new JMXServiceURL("service:jmx:rmi://" + dial), env, rmiServer, server);
            connector.start();
            registry.bind("jmxrmi", rmiServer.toStub());
        } catch (IOException | RuntimeException | AlreadyBoundException e) {
            stopQuietly(connector, registry);
            throw new IOException("cannot serve remote JMX on " + bind + ": " + e.getMessage(), e);
        }
        LOG.info("remote JMX serving on {} ({}, users {}); connect to {}", bind, ssl == null ? "no TLS" : "TLS",
                config.users().keySet(), url);
        return new JmxRemoteServer(connector, registry, bind, url, ssl != null);
    }

    private static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static SSLContext sslContext(JmxRemoteConfig config) throws IOException {
        try (InputStream in = Files.newInputStream(config.keystore().orElseThrow())) {
            KeyStore ks = KeyStore.getInstance(config.keystoreType());
            char[] password = config.keystorePassword().toCharArray();
            ks.load(in, password);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, password);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), null, null);
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use the remote JMX keystore " + config.keystore().orElseThrow() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The address it listens on. */
    public InetSocketAddress address() {
        return address;
    }

    /** Whether connections use TLS. */
    public boolean tls() {
        return tls;
    }

    /** The URL clients connect to. */
    public JMXServiceURL url() {
        return url;
    }

    private static void stopQuietly(JMXConnectorServer connector, Registry registry) {
        if (connector != null) {
            try {
                connector.stop();
            } catch (IOException e) {
                LOG.warn("stopping the remote JMX connector failed: {}", e.toString());
            }
        }
        if (registry != null) {
            try {
                UnicastRemoteObject.unexportObject(registry, true);
            } catch (NoSuchObjectException e) {
                LOG.debug("registry already unexported", e);
            }
        }
    }

    /** Stops the connector (open client connections are closed) and releases the port. */
    @Override
    public void close() {
        stopQuietly(connector, registry);
    }
}
