package io.shardvault.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardvault.common.admin.AdminConfig;
import io.shardvault.common.jmx.JmxRemoteConfig;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ListenerGuardTest {
    private static final ListenerGuard STRICT = ListenerGuard.from(Settings.empty());

    @Test
    void loopbackAndTlsListenersPass() {
        STRICT.admit("pod.bind", new InetSocketAddress("127.0.0.1", 7500), false);
        STRICT.admit("pod.bind", new InetSocketAddress("::1", 7500), false);
        STRICT.admit("pod.bind", new InetSocketAddress("localhost", 7500), false);
        STRICT.admit("s3.bindHost", new InetSocketAddress("0.0.0.0", 9000), true);
    }

    @Test
    void anExposedListenerWithoutTlsStopsTheStartNamingItsKey() {
        assertThatThrownBy(() -> STRICT.admit("pod.bind", new InetSocketAddress("0.0.0.0", 7500), false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pod.bind = 0.0.0.0:7500")
                .hasMessageContaining("security.insecure = true");
        // Through the services' own configs: the admin port and remote JMX without a keystore.
        assertThatThrownBy(() -> AdminConfig.from(Settings.of(Map.of("admin.bind", "0.0.0.0:9480"))))
                .hasMessageContaining("admin.bind = 0.0.0.0:9480");
        assertThatThrownBy(() -> JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.enabled", true,
                "jmx.remote.bind", "0.0.0.0:9010", "jmx.remote.user", "admin", "jmx.remote.password", "pw"))))
                .hasMessageContaining("jmx.remote.bind = 0.0.0.0:9010");
        // Disabled remote JMX listens nowhere, whatever its bind says.
        JmxRemoteConfig.from(Settings.of(Map.of("jmx.remote.bind", "0.0.0.0:9010")));
    }

    @Test
    void insecureAcceptsItAndSaysSoAtWarn() {
        Logger logger = (Logger) LoggerFactory.getLogger(ListenerGuard.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            Settings insecure = Settings.of(Map.of("security.insecure", true, "admin.bind", "0.0.0.0:0"));
            assertThat(AdminConfig.from(insecure).bind().getAddress().isAnyLocalAddress()).isTrue();
        } finally {
            logger.detachAppender(events);
        }
        List<String> warnings = events.list.stream()
                .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings).singleElement().asString().contains("admin.bind = 0.0.0.0:0")
                .contains("security.insecure = true");
    }
}
