package io.shardvault.common;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import io.shardvault.common.rpc.RpcException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shipped logback.xml (not the test one): one line per event, key=value, quiet expected errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServiceLoggingTest {

    @Test
    void oneLinePerEventWithKeyValuesAndStacksOnlyForUnexpectedErrors() throws Exception {
        List<String> lines = logWithShippedConfig(null, log -> {
            log.atInfo().addKeyValue("shard", "0/7/3").log("stored\nchunk");
            log.warn("answered", new RpcException(ErrorCode.NOT_FOUND, "no such shard 0/7/3"));
            log.error("flush failed", new IOException("disk gone", new IllegalStateException("inner")));
            log.debug("not shown at INFO");
        });
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("level=INFO", "logger=ServiceLoggingTest", "shard=\"0/7/3\"",
                "msg=\"stored chunk\"").doesNotContain("error=");
        assertThat(lines.get(1)).contains("level=WARN", "msg=\"answered\"",
                "error=\"io.shardvault.common.rpc.RpcException: NOT_FOUND").contains("no such shard 0/7/3")
                .doesNotContain("stack=", "\tat ");
        assertThat(lines.get(2)).contains("level=ERROR", "error=\"java.io.IOException: disk gone\"", "stack=\"",
                "ServiceLoggingTest", "Caused by: java.lang.IllegalStateException: inner");
    }

    @Test
    void levelComesFromTheSystemProperty() throws Exception {
        List<String> lines = logWithShippedConfig("DEBUG", log -> log.debug("shown at DEBUG"));
        assertThat(lines).singleElement().asString().contains("level=DEBUG", "msg=\"shown at DEBUG\"");
    }

    private static List<String> logWithShippedConfig(String level, java.util.function.Consumer<Logger> body)
            throws Exception {
        URL shipped = Path.of("src/main/resources/logback.xml").toUri().toURL();
        assertThat(Files.exists(Path.of("src/main/resources/logback.xml"))).isTrue();
        String previous = System.getProperty("shardvault.log.level");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        try {
            if (level != null) {
                System.setProperty("shardvault.log.level", level);
            } else {
                System.clearProperty("shardvault.log.level");
            }
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(shipped);
            body.accept(context.getLogger(ServiceLoggingTest.class));
            assertThat(context.getStatusManager().getCopyOfStatusList())
                    .noneMatch(status -> status.getLevel() >= ch.qos.logback.core.status.Status.WARN);
        } finally {
            context.stop();
            System.setErr(err);
            if (previous != null) {
                System.setProperty("shardvault.log.level", previous);
            } else {
                System.clearProperty("shardvault.log.level");
            }
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        return out.lines().toList();
    }
}
