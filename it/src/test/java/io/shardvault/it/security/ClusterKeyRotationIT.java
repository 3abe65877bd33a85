package io.shardvault.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.coordinator.catalog.SecretCipher;
import io.shardvault.it.process.ProcessCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The rotation of docs/SECURITY.md ("Access key secrets at rest") on a cluster of real processes: a key made
 * with {@code admin keys create} under cluster key k1; k2 appended and the coordinator restarted; {@code admin
 * keys rotate-encryption}; k1 removed from the file and the coordinator restarted; the AWS SDK, signing with
 * that access key, still reads and writes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterKeyRotationIT {
    @TempDir
    Path dir;

    private static String field(ProcessCluster.AdminRun run, String label) {
        return run.output().lines().filter(l -> l.startsWith(label)).map(l -> l.substring(label.length()).strip())
                .findFirst().orElseThrow(() -> new AssertionError("no '" + label + "' in: " + run.output()));
    }

    @Test
    void anAccessKeyStillAuthenticatesAfterItsSecretIsRotatedToANewClusterKeyAndTheOldKeyIsGone() throws Exception {
        ProcessCluster.Options small = new ProcessCluster.Options(1, 1, 3, "2+1",
                ProcessCluster.Options.defaults().podConf(), List.of());
        try (ProcessCluster cluster = ProcessCluster.start(dir, small)) {
            assertThat(cluster.admin("accounts", "create", "rotation").exit()).isZero();
            ProcessCluster.AdminRun created = cluster.admin("keys", "create", "--account", "rotation");
            assertThat(created.exit()).as(created.output()).isZero();
            String id = field(created, "access key id:");
            String secret = field(created, "secret key:");
            try (S3Client s3 = cluster.s3Client(id, secret)) {
                s3.createBucket(b -> b.bucket("rotated"));
                s3.putObject(b -> b.bucket("rotated").key("before"), RequestBody.fromString("sealed under k1"));
            }

            Path keys = cluster.clusterKeyFile();
            List<String> k1 = Files.readAllLines(keys, StandardCharsets.UTF_8);
            String k2 = SecretCipher.newKeyLine("k2");
            Files.writeString(keys, k2 + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            cluster.stopCoordinator();
            cluster.startCoordinator();
            ProcessCluster.AdminRun rotated = cluster.admin("keys", "rotate-encryption");
            assertThat(rotated.exit()).as(rotated.output()).isZero();
            assertThat(rotated.output()).containsPattern("[1-9]\\d* secrets re-encrypted under the newest cluster key");
            ProcessCluster.AdminRun again = cluster.admin("keys", "rotate-encryption");
            assertThat(again.output()).as("idempotent").contains("0 secrets re-encrypted");

            Files.writeString(keys, k2 + "\n", StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
            assertThat(Files.readString(keys)).doesNotContain(k1.get(0));
            cluster.stopCoordinator();
            cluster.startCoordinator();
            try (S3Client s3 = cluster.s3Client(id, secret)) {
                assertThat(s3.getObjectAsBytes(b -> b.bucket("rotated").key("before")).asUtf8String())
                        .isEqualTo("sealed under k1");
                s3.putObject(b -> b.bucket("rotated").key("after"), RequestBody.fromString("k2 only"));
                assertThat(s3.listObjectsV2(b -> b.bucket("rotated")).contents()).hasSize(2);
            }
        }
    }
}
