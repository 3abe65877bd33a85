package io.shardvault.pod.admin;

import io.shardvault.common.config.Settings;
import io.shardvault.common.jmx.JmxRemoteConfig;
import io.shardvault.common.jmx.JmxRemoteServer;
import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.pod.PodHost;
import io.shardvault.pod.PodServer;
import io.shardvault.pod.api.PodStats;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the {@link PodHostMXBean} of a process's {@link PodHost} (in the platform MBean
 * server; in a private one when the name is taken, as by a second host in one test JVM) and serves
 * it remotely when the settings enable {@code jmx.remote}. Thread-safe; close it before the host.
 */
public final class PodHostAdmin implements PodHostMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodHostAdmin.class);
    /** {@code io.shardvault:type=PodHost,name=pods}. */
    public static final ObjectName NAME = MBeanRegistrations.name("PodHost", "pods");

    private final PodHost host;
    private MBeanRegistrations registrations;
    private Optional<JmxRemoteServer> remote = Optional.empty();

    private PodHostAdmin(PodHost host) {
        this.host = host;
    }

    /** Registers the MXBean for {@code host} and starts remote JMX when {@code settings} enable it. */
    public static PodHostAdmin start(Settings settings, PodHost host) throws IOException {
        JmxRemoteConfig remoteConfig = JmxRemoteConfig.from(settings);
        PodHostAdmin admin = new PodHostAdmin(host);
        admin.registrations = register(ManagementFactory.getPlatformMBeanServer(), admin);
        if (admin.registrations == null) {
            LOG.warn("{} is already registered in this JVM: using a private MBean server", NAME);
            admin.registrations = register(MBeanServerFactory.newMBeanServer(), admin);
        }
        try {
            admin.remote = JmxRemoteServer.startIfEnabled(remoteConfig, admin.registrations.server());
        } catch (IOException | RuntimeException e) {
            admin.registrations.close();
            throw e;
        }
        return admin;
    }

    private static MBeanRegistrations register(MBeanServer server, PodHostAdmin admin) {
        MBeanRegistrations regs = new MBeanRegistrations(server);
        try {
            regs.register(NAME, admin, PodHostMXBean.class);
            return regs;
        } catch (InstanceAlreadyExistsException e) {
            return null;
        }
    }

    /** The MBean server holding the MXBean. */
    public MBeanServer mbeanServer() {
        return registrations.server();
    }

    private static PodInstanceView view(PodServer p) {
        String address = p.localAddress().getHostString() + ":" + p.localAddress().getPort();
        String slots = p.assignment().map(a -> a.slots().stream().map(Object::toString)
                .collect(Collectors.joining(","))).orElse("unassigned");
        try {
            PodStats s = p.stats();
            return new PodInstanceView(p.config().name(), address, slots, s.unflushedBytes(), s.unflushedShards(),
                    s.purgeQueueDepth(), s.oldestPurgeAgeMillis(), s.usableBytes());
        } catch (IOException e) {
            return new PodInstanceView(p.config().name(), address, slots, -1, -1, -1, -1, -1);
        }
    }

    @Override
    public PodInstanceView[] getPods() {
        return host.pods().stream().map(PodHostAdmin::view).toArray(PodInstanceView[]::new);
    }

    @Override
    public long getUnflushedBytes() {
        long sum = 0;
        for (PodInstanceView v : getPods()) {
            sum += Math.max(0, v.getUnflushedBytes());
        }
        return sum;
    }

    @Override
    public long getPurgeQueueDepth() {
        long sum = 0;
        for (PodInstanceView v : getPods()) {
            sum += Math.max(0, v.getPurgeQueueDepth());
        }
        return sum;
    }

    @Override
    public long getOldestPurgeAgeMillis() {
        long max = 0;
        for (PodInstanceView v : getPods()) {
            max = Math.max(max, v.getOldestPurgeAgeMillis());
        }
        return max;
    }

    @Override
    public int retryPurgesNow() {
        int retrying = 0;
        for (PodServer p : host.pods()) {
            if (p.retryPurgesNow()) {
                retrying++;
            }
        }
        LOG.info("operator forced a purge retry pods={}", retrying);
        return retrying;
    }

    @Override
    public void close() {
        remote.ifPresent(JmxRemoteServer::close);
        registrations.close();
    }
}
