package io.shardvault.common.jmx;

import io.shardvault.common.config.Settings;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * Serves this JVM's platform MBeans over remote JMX with TLS from the keystore and port given, with no trust
 * store of its own: a server that trusts nothing it serves. Prints "serving" once it is; runs until killed.
 * For {@link JmxRemoteTlsTest}, in a child JVM.
 */
public final class JmxTlsServerMain {
    private JmxTlsServerMain() {
    }

    public static void main(String[] args) throws Exception {
        JmxRemoteConfig config = JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.enabled", true,
                "jmx.remote.bind", "127.0.0.1:" + args[1], "jmx.remote.user", "ops", "jmx.remote.password", "pw",
                "jmx.remote.tls.keystore", args[0], "jmx.remote.tls.keystorePassword", "changeit")));
        try (JmxRemoteServer server = JmxRemoteServer.start(config, ManagementFactory.getPlatformMBeanServer())) {
            System.out.println("serving " + server.url());
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
