package io.shardvault.common.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.testing.FreePorts;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import io.shardvault.common.config.Settings;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JmxRemoteServerTest {

    /** A tiny MXBean to serve. */
    @Description("A counter for tests.")
    public interface CounterMXBean {
        @Description("The current count.")
        long getCount();

        @Description("Adds to the count and returns the new count.")
        long add(@Description(value = "How much to add.", name = "delta") long delta);
    }

    static final class Counter implements CounterMXBean {
        Counter() {
        }

        private long count;

        @Override
        public synchronized long getCount() {
            return count;
        }

        @Override
        public synchronized long add(long delta) {
            count += delta;
            return count;
        }
    }

    @Test
    void servesDescribedMXBeansToAuthenticatedClientsOnly() throws Exception {
        MBeanServer mbs = MBeanServerFactory.newMBeanServer();
        ObjectName name = MBeanRegistrations.name("Counter", "test");
        try (MBeanRegistrations regs = new MBeanRegistrations(mbs)) {
            regs.register(name, new Counter(), CounterMXBean.class);
            JmxRemoteConfig config = JmxRemoteConfig.withPassword(new InetSocketAddress("127.0.0.1", FreePorts.loopback()),
                    "ops", "s3cret");
            try (JmxRemoteServer server = JmxRemoteServer.start(config, mbs)) {
                try (JMXConnector c = JMXConnectorFactory.connect(server.url(),
                        Map.of(JMXConnector.CREDENTIALS, new String[] {"ops", "s3cret"}))) {
                    MBeanServerConnection conn = c.getMBeanServerConnection();
                    CounterMXBean proxy = JMX.newMXBeanProxy(conn, name, CounterMXBean.class);
                    assertThat(proxy.add(5)).isEqualTo(5);
                    assertThat(conn.getAttribute(name, "Count")).isEqualTo(5L);
                    MBeanInfo info = conn.getMBeanInfo(name);
                    assertThat(info.getDescription()).isEqualTo("A counter for tests.");
                    assertThat(info.getAttributes()[0].getDescription()).isEqualTo("The current count.");
                    MBeanOperationInfo add = info.getOperations()[0];
                    assertThat(add.getDescription()).isEqualTo("Adds to the count and returns the new count.");
                    assertThat(add.getSignature()[0].getName()).isEqualTo("delta");
                    assertThat(add.getImpact()).isEqualTo(MBeanOperationInfo.ACTION);
                }
                assertThatThrownBy(() -> JMXConnectorFactory.connect(server.url(),
                        Map.of(JMXConnector.CREDENTIALS, new String[] {"ops", "wrong"})))
                        .isInstanceOf(SecurityException.class);
                assertThatThrownBy(() -> JMXConnectorFactory.connect(server.url(), Map.of()))
                        .isInstanceOf(SecurityException.class);
            }
        }
    }

    @Test
    void configNeedsCredentialsWhenEnabledAndReadsPasswordFiles(@TempDir Path dir) throws Exception {
        io.shardvault.common.testing.ConfigKeysConventions.assertWellFormed(JmxRemoteConfigKeys.class);
        assertThat(JmxRemoteConfig.from(Settings.empty()).enabled()).isFalse();
        assertThatThrownBy(() -> JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.enabled", true))))
                .hasMessageContaining("never served without authentication");
        Path file = dir.resolve("jmx.password");
        Files.writeString(file, "# operators\nalice  pw one\n\nbob pw2\n");
        JmxRemoteConfig c = JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.enabled", true,
                "jmx.remote.passwordFile", file.toString(), "jmx.remote.bind", "127.0.0.1:9999")));
        assertThat(c.users()).containsExactlyInAnyOrderEntriesOf(Map.of("alice", "pw one", "bob", "pw2"));
        assertThat(c.toString()).doesNotContain("pw2");
    }
}
