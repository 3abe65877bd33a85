package io.shardvault.common.jmx;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MBeans one component registered in one MBean server, unregistered together on close. Names
 * are {@code io.shardvault:type=TYPE,name=NAME}. Thread-safe.
 */
public final class MBeanRegistrations implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MBeanRegistrations.class);
    /** The JMX domain of every shardvault MBean. */
    public static final String DOMAIN = "io.shardvault";

    private final MBeanServer server;
    private final List<ObjectName> names = new ArrayList<>();

    public MBeanRegistrations(MBeanServer server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    /** {@code io.shardvault:type=TYPE,name=NAME}, the name quoted when it needs to be. */
    public static ObjectName name(String type, String name) {
        try {
            return new ObjectName(DOMAIN + ":type=" + type + ",name=" + quoteIfNeeded(name));
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("bad MBean name " + type + "/" + name + ": " + e.getMessage(), e);
        }
    }

    private static String quoteIfNeeded(String value) {
        for (char c : value.toCharArray()) {
            if (",=:\"*?\n".indexOf(c) >= 0) {
                return ObjectName.quote(value);
            }
        }
        return value;
    }

    /** The server the MBeans are in. */
    public MBeanServer server() {
        return server;
    }

    /**
     * Registers {@code impl} (an implementation of the MXBean interface {@code iface}) under
     * {@code name}, with its {@link Description}s.
     *
     * @throws InstanceAlreadyExistsException when the name is taken in this server
     */
    public synchronized <T> void register(ObjectName name, T impl, Class<T> iface)
            throws InstanceAlreadyExistsException {
        try {
            server.registerMBean(new DescribedMXBean<>(impl, iface), name);
        } catch (InstanceAlreadyExistsException e) {
            throw e;
        } catch (JMException e) {
            throw new IllegalArgumentException("cannot register " + name + ": " + e.getMessage(), e);
        }
        names.add(name);
    }

    @Override
    public synchronized void close() {
        for (ObjectName name : names) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException e) {
                LOG.debug("{} was already unregistered", name);
            } catch (JMException e) {
                LOG.warn("cannot unregister {}: {}", name, e.toString());
            }
        }
        names.clear();
    }
}
