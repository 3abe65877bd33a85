package io.shardvault.stash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(30)
class StashMainTest {
    @TempDir
    Path dir;

    @Test
    void rejectsUnknownSettingsAndBadBindWithoutStarting() {
        assertThat(new CommandLine(new StashMain()).execute("--set", "stash.capacityByte=1g", "--bind", "127.0.0.1:0"))
                .isEqualTo(2);
        assertThat(new CommandLine(new StashMain()).execute("--bind", "nowhere")).isEqualTo(2);
        assertThat(new CommandLine(new StashMain()).execute("--set", "stash.capacityBytes=-1", "--bind", "127.0.0.1:0"))
                .isEqualTo(2);
    }

    @Test
    void refusesToListenBeyondLoopbackWithoutTls() {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = new CommandLine(new StashMain()).execute("--bind", "0.0.0.0:0", "--data",
                    dir.resolve("stash").toString());
        } finally {
            System.setErr(before);
        }
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--bind = 0.0.0.0:0")
                .contains("security.insecure");
        assertThat(dir.resolve("stash")).doesNotExist();
    }

    @Test
    void configResolvesEveryKey() {
        Settings settings = Settings.load(Optional.empty(), List.of("stash.dataDir=/ssd/stash",
                "stash.capacityBytes=2GiB", "stash.slotAgeWarning=90s", "rpc.server.workerThreads=3",
                "stash.chunkLog.segmentBytes=8MiB"));
        settings.rejectUnknown(StashConfigKeys.all());
        StashConfig config = StashConfig.from(settings);
        assertThat(config.dataDir()).isEqualTo(Path.of("/ssd/stash"));
        assertThat(config.capacityBytes()).isEqualTo(2L << 30);
        assertThat(config.slotAgeWarning()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.rpc().workerThreads()).isEqualTo(3);
        assertThat(config.store().segmentBytes()).isEqualTo(8 << 20);
        assertThat(StashConfig.from(Settings.empty())).isEqualTo(StashConfig.defaults(Path.of("data", "stash")));
    }
}
