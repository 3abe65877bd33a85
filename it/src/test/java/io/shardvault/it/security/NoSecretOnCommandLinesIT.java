package io.shardvault.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.it.process.ProcessCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * No secret on a command line (issue #21, item 4): a cluster of real processes started as
 * {@code bin/shardvault dev} starts them (stash, pods, coordinator, and the admin CLI), serving S3 and
 * the CLI, and then what {@code ps} shows of every process this user can see, and every service's log
 * file, holds neither the S3 secret key nor the JMX password.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NoSecretOnCommandLinesIT {
    @TempDir
    Path dir;

    @Test
    void psAndTheLogFilesShowNoSecret() throws Exception {
        ProcessCluster.Options small = new ProcessCluster.Options(1, 1, 3, "2+1",
                ProcessCluster.Options.defaults().podConf(), List.of());
        try (ProcessCluster cluster = ProcessCluster.start(dir, small)) {
            try (S3Client s3 = cluster.s3Client()) {
                s3.createBucket(b -> b.bucket("ps-check"));
                s3.putObject(b -> b.bucket("ps-check").key("k"), RequestBody.fromString("bytes"));
            }
            assertThat(cluster.admin("status").exit()).isZero();
            // ps -eo args: the command line of every process, as any local user sees it.
            List<String> commandLines = ProcessHandle.allProcesses()
                    .flatMap(p -> p.info().commandLine().stream()).toList();
            assertThat(commandLines).as("command lines of the cluster's processes")
                    .anyMatch(c -> c.contains("shardvault-coordinator"));
            for (String secret : cluster.secrets()) {
                assertThat(commandLines.stream().filter(c -> c.contains(secret))).as("command lines").isEmpty();
            }
            List<Path> logs;
            try (Stream<Path> files = Files.list(dir.resolve("logs"))) {
                logs = files.toList();
            }
            assertThat(logs).isNotEmpty();
            for (Path log : logs) {
                String text = Files.readString(log);
                for (String secret : cluster.secrets()) {
                    assertThat(text).as("%s", log).doesNotContain(secret);
                }
            }
        }
    }
}
