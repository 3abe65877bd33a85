package io.shardvault.common.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ChildJvm;
import io.shardvault.common.testing.FreePorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.rmi.ssl.SslRMIClientSocketFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote JMX over TLS, registry included, with a keystore made by keytool for the test. Sets the
 * JVM's default trust store, which a JVM makes once, so it runs in a JVM of its own (common's pom).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JmxRemoteTlsTest {

    private static void keytool(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    @TempDir
    static Path dir;
    private static Path keystore;

    /** A keystore made by keytool, and the JVM's default trust store holding its certificate (for the clients). */
    @BeforeAll
    static void makeKeys() throws Exception {
        keystore = dir.resolve("jmx.p12");
        Path cert = dir.resolve("jmx.crt");
        Path truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "jmx", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-alias", "jmx", "-keystore", keystore.toString(), "-storepass", "changeit",
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "jmx", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", truststore.toString(), "-storepass", "changeit");
        System.setProperty("javax.net.ssl.trustStore", truststore.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", "changeit");

    }

    @Test
    void servesOverTlsToClientsThatTrustTheCertificate() throws Exception {
        int port = FreePorts.loopback();
        JmxRemoteConfig config = JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.enabled", true,
                "jmx.remote.bind", "127.0.0.1:" + port, "jmx.remote.user", "ops", "jmx.remote.password", "pw",
                "jmx.remote.tls.keystore", keystore.toString(), "jmx.remote.tls.keystorePassword", "changeit")));
        MBeanServer mbs = MBeanServerFactory.newMBeanServer();
        ObjectName name = MBeanRegistrations.name("Counter", "tls");
        try (MBeanRegistrations regs = new MBeanRegistrations(mbs);
             JmxRemoteServer server = JmxRemoteServer.start(config, mbs)) {
            regs.register(name, new JmxRemoteServerTest.Counter(), JmxRemoteServerTest.CounterMXBean.class);
            assertThat(server.tls()).isTrue();
            try (JMXConnector c = JMXConnectorFactory.connect(server.url(), Map.of(
                    JMXConnector.CREDENTIALS, new String[] {"ops", "pw"},
                    "com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory()))) {
                assertThat(c.getMBeanServerConnection().getAttribute(name, "Count")).isEqualTo(0L);
            }
            // A plain client cannot even read the registry.
            assertThatThrownBy(() -> JMXConnectorFactory.connect(server.url(),
                    Map.of(JMXConnector.CREDENTIALS, new String[] {"ops", "pw"})).close())
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    /**
     * The server needs no trust of its own: its JVM's default trust store (as in a service started with no
     * javax.net.ssl options) does not hold its self-signed certificate, and it serves all the same. It once bound
     * its stub by dialling its own registry as a TLS client, which failed to start such a server.
     */
    @Test
    void aServerWhoseJvmDoesNotTrustItsOwnCertificateServes() throws Exception {
        int port = FreePorts.loopback();
        try (ChildJvm server = ChildJvm.builder(JmxTlsServerMain.class).name("jmx-tls")
                .args(keystore.toString(), Integer.toString(port)).start()) {
            String url = server.awaitLine("serving ", Duration.ofSeconds(60));
            assertThat(url).isEqualTo("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
            try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(url), Map.of(
                    JMXConnector.CREDENTIALS, new String[] {"ops", "pw"},
                    "com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory()))) {
                assertThat(c.getMBeanServerConnection().getAttribute(new ObjectName("java.lang:type=Runtime"), "Pid"))
                        .isEqualTo(server.pid());
            }
        }
    }
}
