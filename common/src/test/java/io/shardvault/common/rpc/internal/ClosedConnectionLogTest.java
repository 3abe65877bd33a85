package io.shardvault.common.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ClosedConnectionLogTest {
    private static final long SECOND = 1_000_000_000L;

    private final Logger logger = (Logger) LoggerFactory.getLogger(ClosedConnectionLogTest.class);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final AtomicLong now = new AtomicLong(42 * SECOND);

    @BeforeEach
    void capture() {
        events.start();
        logger.addAppender(events);
    }

    @AfterEach
    void release() {
        logger.detachAppender(events);
    }

    @Test
    void oneLinePerAddressPerWindowThenTheCountOfTheSuppressed() {
        ClosedConnectionLog log = new ClosedConnectionLog(logger, Duration.ofMinutes(1), 16, now::get);
        for (int port = 50000; port < 50005; port++) {
            log.closing(new InetSocketAddress("10.0.0.7", port), "no certificate");
        }
        log.closing(new InetSocketAddress("10.0.0.8", 50000), "no certificate");
        assertThat(lines()).hasSize(2);
        assertThat(lines().get(0)).contains("remote=/10.0.0.7:50000").doesNotContain("suppressed");
        assertThat(lines().get(1)).contains("remote=/10.0.0.8:50000");

        now.addAndGet(59 * SECOND);
        log.closing(new InetSocketAddress("10.0.0.7", 50010), "no certificate");
        assertThat(lines()).hasSize(2);

        now.addAndGet(SECOND);
        log.closing(new InetSocketAddress("10.0.0.7", 50011), "no certificate");
        assertThat(lines()).hasSize(3);
        assertThat(lines().get(2)).contains("remote=/10.0.0.7:50011").contains("suppressed=5");

        // A quiet window: the next line has nothing suppressed to report.
        now.addAndGet(120 * SECOND);
        log.closing(new InetSocketAddress("10.0.0.7", 50012), "no certificate");
        assertThat(lines().get(3)).doesNotContain("suppressed");
    }

    @Test
    void pastTheAddressLimitTheRestShareOneWindow() {
        ClosedConnectionLog log = new ClosedConnectionLog(logger, Duration.ofMinutes(1), 2, now::get);
        for (int host = 1; host <= 10; host++) {
            log.closing(new InetSocketAddress("10.0.1." + host, 40000), "not TLS");
        }
        // Two addresses of their own, then one line for the eight others.
        assertThat(lines()).hasSize(3);
        // Once the windows are idle, addresses are tracked again.
        now.addAndGet(61 * SECOND);
        log.closing(new InetSocketAddress("10.0.1.20", 40000), "not TLS");
        log.closing(new InetSocketAddress("10.0.1.20", 40001), "not TLS");
        assertThat(lines()).hasSize(4);
    }

    private List<String> lines() {
        return events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
}
