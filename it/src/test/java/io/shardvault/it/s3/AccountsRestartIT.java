package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.Coordinator;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.testing.MiniCluster;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;

/**
 * A coordinator restarted on its catalog keeps accounts and key restrictions (issue #21): a read-only key
 * limited to one bucket, created before the restart, still lists only its bucket, reads it, and is refused
 * writes and other buckets after it, with AWS SDK v2 against a real cluster.
 */
@Timeout(300)
class AccountsRestartIT {
    private static final byte[] CONTENT = "kept across the restart".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private static S3Client client(Coordinator c, AccessKey k) {
        return S3Cluster.syncClient(URI.create("http://127.0.0.1:" + c.s3Address().getPort()), k.accessKeyId(),
                k.secretKey(), Duration.ofSeconds(60));
    }

    @Test
    void accountsAndRestrictionsSurviveACoordinatorRestart() throws Exception {
        try (MiniCluster nodes = MiniCluster.start(dir.resolve("nodes"), MiniCluster.Options.defaults())) {
            Map<String, Object> s = S3Cluster.coordinatorSettings(nodes, dir.resolve("catalog"), 0);
            Account account;
            AccessKey full;
            AccessKey restricted;
            try (Coordinator c = Coordinator.start(Settings.of(s), new SimpleMeterRegistry())) {
                account = c.catalog().createAccount("restore-tool").get(30, TimeUnit.SECONDS);
                full = c.catalog().createAccessKey(account.id(), false).get(30, TimeUnit.SECONDS);
                restricted = c.catalog().createAccessKey(account.id(), false, Optional.of("kept"), true)
                        .get(30, TimeUnit.SECONDS);
                try (S3Client s3 = client(c, full)) {
                    s3.createBucket(b -> b.bucket("kept"));
                    s3.createBucket(b -> b.bucket("elsewhere"));
                    s3.putObject(p -> p.bucket("kept").key("k"), RequestBody.fromBytes(CONTENT));
                }
            }
            try (Coordinator c = Coordinator.start(Settings.of(s), new SimpleMeterRegistry());
                 S3Client s3 = client(c, restricted)) {
                List<AccountListing> accounts = c.catalog().listAccounts().get(30, TimeUnit.SECONDS);
                assertThat(accounts).singleElement().satisfies(l -> {
                    assertThat(l.account()).isEqualTo(account);
                    assertThat(l.keys()).isEqualTo(2);
                    assertThat(l.buckets()).isEqualTo(2);
                });
                assertThat(c.catalog().lookupAccessKey(restricted.accessKeyId()).get(30, TimeUnit.SECONDS))
                        .isEqualTo(restricted);
                assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).containsExactly("kept");
                assertThat(s3.getObjectAsBytes(g -> g.bucket("kept").key("k")).asByteArray()).isEqualTo(CONTENT);
                AccountsIT.assertDenied(() -> s3.putObject(p -> p.bucket("kept").key("new"), RequestBody.fromBytes(CONTENT)));
                AccountsIT.assertDenied(() -> s3.deleteObject(d -> d.bucket("kept").key("k")));
                AccountsIT.assertDenied(() -> s3.listObjectsV2(l -> l.bucket("elsewhere")));
                try (S3Client owner = client(c, full)) {
                    assertThat(owner.listBuckets().buckets()).extracting(Bucket::name)
                            .containsExactly("elsewhere", "kept");
                    assertThat(owner.listObjectsV2(l -> l.bucket("kept")).contents()).hasSize(1);
                }
            }
        }
    }
}
