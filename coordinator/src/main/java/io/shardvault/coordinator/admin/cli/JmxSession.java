package io.shardvault.coordinator.admin.cli;

import io.shardvault.common.DaemonThreads;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.RuntimeOperationsException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * One JMX connection to a coordinator, with failures turned into {@link AdminException}s: nothing
 * listening or no answer in time is {@link ExitCodes#UNREACHABLE}, refused credentials and failed
 * operations are {@link ExitCodes#FAILED}. Not thread-safe; close it.
 */
final class JmxSession implements AutoCloseable {
    private final JMXConnector connector;
    private final MBeanServerConnection connection;

    private JmxSession(JMXConnector connector, MBeanServerConnection connection) {
        this.connector = connector;
        this.connection = connection;
    }

    static JmxSession open(String hostPort, String user, String password, boolean tls, long timeoutMillis)
            throws AdminException {
        JMXServiceURL url;
        try {
            url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hostPort + "/jmxrmi");
        } catch (java.net.MalformedURLException e) {
            throw new AdminException(ExitCodes.USAGE, "bad --jmx address '" + hostPort + "': " + e.getMessage());
        }
        Map<String, Object> env = new HashMap<>();
        if (user != null) {
            env.put(JMXConnector.CREDENTIALS, new String[] {user, password == null ? "" : password});
        }
        if (tls) {
            env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
        }
        // The RMI connect has no timeout of its own: run it where we can stop waiting.
        ExecutorService connectThread = Executors.newSingleThreadExecutor(DaemonThreads.named("jmx-connect"));
        try {
            Future<JMXConnector> f = connectThread.submit(() -> JMXConnectorFactory.connect(url, env));
            JMXConnector c = f.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return new JmxSession(c, c.getMBeanServerConnection());
        } catch (TimeoutException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "no answer from the cluster's JMX at " + hostPort
                    + " within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof SecurityException) {
                throw new AdminException(ExitCodes.FAILED, "JMX at " + hostPort + " refused the credentials: "
                        + c.getMessage() + " (set --user/--password, SHARDVAULT_JMX_USER/SHARDVAULT_JMX_PASSWORD"
                        + " or --password-file)");
            }
            throw new AdminException(ExitCodes.UNREACHABLE, "cannot reach the cluster's JMX at " + hostPort + ": "
                    + rootMessage(c) + " (is the coordinator running with jmx.remote.enabled=true?)");
        } catch (IOException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "cannot reach the cluster's JMX at " + hostPort + ": "
                    + rootMessage(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException(ExitCodes.FAILED, "interrupted");
        } finally {
            connectThread.shutdownNow();
        }
    }

    /** The innermost cause's message: RMI wraps the one that says what happened several times. */
    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        if (c instanceof javax.naming.NamingException n && n.getRootCause() != null) {
            c = n.getRootCause();
        }
        String m = c.getMessage();
        return m == null ? c.getClass().getSimpleName() : m.replaceAll("\\s+", " ");
    }

    Object get(ObjectName name, String attribute) throws AdminException {
        try {
            return connection.getAttribute(name, attribute);
        } catch (JMException | RuntimeException e) {
            throw failed("reading " + attribute + " of " + name, e);
        } catch (IOException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "lost the JMX connection: " + rootMessage(e));
        }
    }

    /**
     * The named attributes of one MBean, in the order given, keyed as JSON would name them
     * ({@code DegradedFiles} becomes {@code degradedFiles}).
     */
    java.util.Map<String, Object> attributes(ObjectName name, String... attributes) throws AdminException {
        java.util.Map<String, Object> all = new java.util.LinkedHashMap<>();
        for (String a : attributes) {
            all.put(Character.toLowerCase(a.charAt(0)) + a.substring(1), get(name, a));
        }
        return all;
    }

    Object invoke(ObjectName name, String operation, Object[] args, String[] signature) throws AdminException {
        try {
            return connection.invoke(name, operation, args, signature);
        } catch (JMException | RuntimeException e) {
            throw failed(operation, e);
        } catch (IOException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "lost the JMX connection: " + rootMessage(e));
        }
    }

    java.util.Set<ObjectName> query(ObjectName pattern) throws AdminException {
        try {
            return connection.queryNames(pattern, null);
        } catch (IOException e) {
            throw new AdminException(ExitCodes.UNREACHABLE, "lost the JMX connection: " + rootMessage(e));
        }
    }

    private static AdminException failed(String what, Exception e) {
        Throwable c = e;
        if (e instanceof RuntimeMBeanException r && r.getTargetException() != null) {
            c = r.getTargetException();
        } else if (e instanceof RuntimeOperationsException r && r.getTargetException() != null) {
            c = r.getTargetException();
        } else if (e instanceof javax.management.MBeanException m && m.getTargetException() != null) {
            c = m.getTargetException();
        } else if (e instanceof javax.management.InstanceNotFoundException) {
            return new AdminException(ExitCodes.FAILED, "no such MBean: " + e.getMessage()
                    + " (is this a shardvault coordinator?)");
        }
        String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
        return new AdminException(ExitCodes.FAILED, m.startsWith(what) ? m : what + ": " + m);
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // Closing a dead connection fails; nothing to do about it.
        }
    }
}
