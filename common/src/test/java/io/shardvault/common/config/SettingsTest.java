package io.shardvault.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcConfigKeys;
import io.shardvault.common.rpc.RpcServerConfig;
import io.shardvault.common.testing.ConfigKeysConventions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class SettingsTest {
    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path file = dir.resolve("shardvault.conf");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void defaultsApplyWhenNothingIsSet() {
        RpcServerConfig config = RpcServerConfig.from(Settings.empty());
        assertThat(config.maxFrameBytes()).isEqualTo(64 << 20);
        assertThat(config.drainTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void readsTypedValuesFromAFileWithCommandLineOverridesOnTop() throws IOException {
        Path file = write("""
                rpc {
                  maxFrameBytes = 8MiB
                  drainTimeout = 250ms
                  client.connectionsPerPeer = 3
                }
                """);
        Settings settings = Settings.load(Optional.of(file), List.of("rpc.client.connectionsPerPeer=5",
                "rpc.client.requestTimeout = 2s"));
        RpcClientConfig client = RpcClientConfig.from(settings);
        assertThat(client.maxFrameBytes()).isEqualTo(8 << 20);
        assertThat(client.drainTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(client.connectionsPerPeer()).isEqualTo(5);
        assertThat(client.requestTimeout()).isEqualTo(Duration.ofSeconds(2));
        settings.rejectUnknown(RpcConfigKeys.all());
    }

    @Test
    void aBadValueNamesTheKeyTheFileAndTheLine() throws IOException {
        Path file = write("rpc.client.connectionsPerPeer = 2\nrpc.client.requestTimeout = soon\n");
        Settings settings = Settings.load(Optional.of(file), List.of());
        assertThatThrownBy(() -> RpcClientConfig.from(settings))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("rpc.client.requestTimeout")
                .hasMessageContaining(file.getFileName().toString())
                .hasMessageContaining("2")
                .hasMessageContaining("soon");
    }

    @Test
    void anOutOfRangeValueNamesTheKeyTheRangeAndTheCommandLine() {
        Settings settings = Settings.load(Optional.empty(), List.of("rpc.client.connectionsPerPeer=0"));
        assertThatThrownBy(() -> RpcClientConfig.from(settings))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("rpc.client.connectionsPerPeer")
                .hasMessageContaining("[1, 64]")
                .hasMessageContaining("command line");
    }

    @Test
    void aMisspeltKeyIsAnErrorNotSilentlyIgnored() throws IOException {
        Path file = write("rpc.client.conectionsPerPeer = 4\n");
        Settings settings = Settings.load(Optional.of(file), List.of());
        assertThatThrownBy(() -> settings.rejectUnknown(RpcConfigKeys.all()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("rpc.client.conectionsPerPeer")
                .hasMessageContaining("shardvault.conf");
    }

    @Test
    void aMissingOrBrokenFileIsAClearError() throws IOException {
        assertThatThrownBy(() -> Settings.load(Optional.of(dir.resolve("nope.conf")), List.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("nope.conf");
        Path broken = write("rpc { maxFrameBytes = \n");
        assertThatThrownBy(() -> Settings.load(Optional.of(broken), List.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("shardvault.conf");
        assertThatThrownBy(() -> Settings.load(Optional.empty(), List.of("novalue")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("novalue");
    }

    @Test
    void inMemorySettingsLayOverEachOther() {
        Settings settings = Settings.of(Map.of("rpc.drainTimeout", "1s"))
                .with(Map.of("rpc.drainTimeout", "3s", "rpc.server.workerThreads", 7));
        RpcServerConfig config = RpcServerConfig.from(settings);
        assertThat(config.drainTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.workerThreads()).isEqualTo(7);
    }

    @Test
    void rpcConfigKeysFollowTheConvention() throws ReflectiveOperationException {
        ConfigKeysConventions.assertWellFormed(RpcConfigKeys.class);
    }

    @Test
    void aSecretIsNeitherLoggedNorQuotedInAnError() throws IOException {
        ConfigKey<String> secret = ConfigKey.ofSecret("test.secret", "none", "a secret");
        ConfigKey<String> plain = ConfigKey.ofString("test.plain", "none", "not a secret");
        Logger logger = (Logger) LoggerFactory.getLogger(Settings.class);
        Level before = logger.getLevel();
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        logger.setLevel(Level.DEBUG);
        try {
            Settings settings = Settings.load(Optional.of(write("test.plain = visible-value\n")),
                    List.of("test.secret=hunter2-sekrit"));
            assertThat(settings.get(secret)).isEqualTo("hunter2-sekrit");
            assertThat(settings.get(plain)).isEqualTo("visible-value");
        } finally {
            logger.detachAppender(events);
            logger.setLevel(before);
        }
        List<String> lines = events.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("test.plain=visible-value"));
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("test.secret=(secret, not shown)"));
        assertThat(String.join("\n", lines)).doesNotContain("hunter2");

        // A value of the wrong type: the error names the key and the origin, never the value.
        Settings wrongType = Settings.load(Optional.of(write("test.secret = [hunter2-sekrit]\n")), List.of());
        assertThatThrownBy(() -> wrongType.get(secret))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.secret")
                .satisfies(e -> assertThat(e.toString() + e.getCause()).doesNotContain("hunter2"));
        // The same mistake in a plain key does quote it, to help find it.
        Settings plainWrong = Settings.load(Optional.of(write("test.plain = [visible-value]\n")), List.of());
        assertThatThrownBy(() -> plainWrong.get(plain)).hasMessageContaining("visible-value");
    }
}
