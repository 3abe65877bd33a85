package io.shardvault.common;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.shardvault.common.rpc.RpcException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped logback.xml (not the test one): one line per event, key=value, quiet expected errors; JSON
 * objects instead with {@code -Dshardvault.log.format=json}; the audit logger off.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServiceLoggingTest {

    @Test
    void oneLinePerEventWithKeyValuesAndStacksOnlyForUnexpectedErrors() throws Exception {
        List<String> lines = logWithShippedConfig(Map.of(), log -> {
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
        List<String> lines = logWithShippedConfig(Map.of("shardvault.log.level", "DEBUG"),
                log -> log.debug("shown at DEBUG"));
        assertThat(lines).singleElement().asString().contains("level=DEBUG", "msg=\"shown at DEBUG\"");
    }

    @Test
    void jsonFormatWritesEachEventAsOneJsonObject() throws Exception {
        List<String> lines = logWithShippedConfig(Map.of("shardvault.log.format", "json"), log -> {
            log.atInfo().addKeyValue("shard", "0/7/3").log("stored\nchunk \"quoted\"");
            log.error("flush failed", new IOException("disk gone"));
        });
        assertThat(lines).hasSize(2);
        ConfigParseOptions strict = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON);
        Config info = ConfigFactory.parseString(lines.get(0), strict);
        assertThat(info.getString("level")).isEqualTo("INFO");
        assertThat(info.getString("loggerName")).isEqualTo(ServiceLoggingTest.class.getName());
        assertThat(info.getString("message")).isEqualTo("stored\nchunk \"quoted\"");
        assertThat(info.getObjectList("kvpList")).singleElement()
                .satisfies(pair -> assertThat(pair.unwrapped()).containsEntry("shard", "0/7/3"));
        assertThat(info.getLong("timestamp")).isPositive();
        Config error = ConfigFactory.parseString(lines.get(1), strict);
        assertThat(error.getString("throwable.className")).isEqualTo("java.io.IOException");
        assertThat(error.getString("throwable.message")).isEqualTo("disk gone");
    }

    /** The audit records have their own file (the coordinator's): never in the service log. */
    @Test
    void auditLoggerIsOff() throws Exception {
        List<String> lines = logWithShippedConfig(Map.of(), log -> log.getLoggerContext()
                .getLogger("shardvault.audit").atInfo().addKeyValue("requestId", "R1").log("S3 request"));
        assertThat(lines).isEmpty();
    }

    /** Logs with the shipped configuration, {@code properties} set as system properties (as -D sets them). */
    private static List<String> logWithShippedConfig(Map<String, String> properties,
                                                     java.util.function.Consumer<Logger> body) throws Exception {
        URL shipped = Path.of("src/main/resources/logback.xml").toUri().toURL();
        assertThat(Files.exists(Path.of("src/main/resources/logback.xml"))).isTrue();
        List<String> names = List.of("shardvault.log.level", "shardvault.log.format");
        Map<String, String> previous = new HashMap<>();
        names.forEach(n -> previous.put(n, System.getProperty(n)));
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        try {
            names.forEach(n -> setOrClear(n, properties.get(n)));
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
            names.forEach(n -> setOrClear(n, previous.get(n)));
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        return out.lines().toList();
    }

    private static void setOrClear(String name, String value) {
        if (value != null) {
            System.setProperty(name, value);
        } else {
            System.clearProperty(name);
        }
    }
}
