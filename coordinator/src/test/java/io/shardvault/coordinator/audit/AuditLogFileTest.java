package io.shardvault.coordinator.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.ConfigKeysConventions;
import io.shardvault.s3.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The audit log's settings and file: resolved by the conventions; a total size below one file refused; a file
 * that cannot be opened stops the start (the coordinator does not run unaudited by accident); closed, the
 * logger is off again. The records themselves: it/ AuditLogIT.
 */
class AuditLogFileTest {
    @TempDir
    Path dir;

    @Test
    void settingsFollowTheConventions() throws Exception {
        ConfigKeysConventions.assertWellFormed(AuditLogConfigKeys.class);
        AuditLogConfig c = AuditLogConfig.from(Settings.of(Map.of("audit.file", "/var/log/shardvault/s3.json",
                "audit.maxFileSize", "1MiB")));
        assertThat(c.enabled()).isTrue();
        assertThat(c.maxFileSize()).isEqualTo(1L << 20);
        assertThat(c.rolledFilePattern()).isEqualTo("/var/log/shardvault/s3.%d{yyyy-MM-dd,UTC}.%i.json.gz");
        assertThat(AuditLogConfig.from(Settings.empty()).file()).isEqualTo(Path.of("logs", "audit.json"));
        assertThatThrownBy(() -> AuditLogConfig.from(Settings.of(Map.of("audit.maxFileSize", "2GiB",
                "audit.maxTotalSize", "1GiB")))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.maxTotalSize").hasMessageContaining("audit.maxFileSize");
    }

    @Test
    void aFileThatCannotBeOpenedStopsTheStart() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        AuditLogConfig config = new AuditLogConfig(true, notADirectory.resolve("audit.json"), 1L << 20, 30, 1L << 30);
        assertThatThrownBy(() -> AuditLogFile.start(config)).isInstanceOf(IOException.class)
                .hasMessageContaining(notADirectory.resolve("audit.json").toString())
                .hasMessageContaining("audit.file");
        assertThat(LoggerFactory.getLogger(S3Server.AUDIT_LOGGER).isInfoEnabled()).isFalse();
    }

    // The audit files are try-with-resources scopes whose variables are never read.
    @SuppressWarnings("try")
    @Test
    void writesWhileOpenAndNothingOnceClosedOrDisabled() throws IOException {
        Path file = dir.resolve("logs").resolve("audit.json");
        org.slf4j.Logger audit = LoggerFactory.getLogger(S3Server.AUDIT_LOGGER);
        try (AuditLogFile ignored = AuditLogFile.start(new AuditLogConfig(true, file, 1L << 20, 30, 1L << 30))) {
            audit.atInfo().addKeyValue("requestId", "R1").log("S3 request");
        }
        audit.atInfo().addKeyValue("requestId", "R2").log("S3 request");
        try (AuditLogFile ignored = AuditLogFile.start(new AuditLogConfig(false, file, 1L << 20, 30, 1L << 30))) {
            audit.atInfo().addKeyValue("requestId", "R3").log("S3 request");
        }
        // The event's timestamp and its key/value pairs, nothing else (no level, thread, logger, MDC or message).
        assertThat(Files.readAllLines(file)).singleElement().asString()
                .matches("\\{\"timestamp\":\\d+,\"kvpList\": \\[\\{\"requestId\":\"R1\"}]}");
    }
}
