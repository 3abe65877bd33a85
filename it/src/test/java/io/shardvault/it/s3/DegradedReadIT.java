package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.testing.MiniCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Issue #23's soak saw GETs answered 500 InternalError while pods were down: an object written with one pod
 * down (its shard recorded missing), then more pods down, left fewer than k chunks readable. That is "retry
 * later", 503 ServiceUnavailable, which the SDKs retry; once the pods are back the object reads back bit-exact.
 * On an {@link S3Cluster} (one 16+4 vault of 20 pods in this JVM), repair off so that the shard the write
 * missed stays missing, as it was in the soak before repair caught up.
 */
@Timeout(300)
class DegradedReadIT {
    private static final String BUCKET = "degraded";

    @TempDir
    Path dir;

    @Test
    void aGetShortOfChunksWhilePodsAreDownIs503AndReadsBackBitExactOnceTheyReturn() throws Exception {
        // Larger than the stash threshold (1 MiB): no stash copy rescues a chunk.
        byte[] body = new byte[2 << 20];
        new Random(23).nextBytes(body);
        try (S3Cluster cluster = S3Cluster.start(dir, Map.of("repair.enabled", "false"));
             S3Client s3 = S3Cluster.syncClient(cluster.endpoint(), cluster.accessKey(), cluster.secretKey(),
                     c -> c.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(AwsRetryStrategy.doNotRetry()))) {
            MiniCluster pods = cluster.nodes();
            s3.createBucket(b -> b.bucket(BUCKET));
            pods.stopPod(0);
            s3.putObject(b -> b.bucket(BUCKET).key("k"), RequestBody.fromBytes(body));
            // Pod 0 is back without the shard the write missed; 4 others go: 15 of the 16 chunks needed.
            pods.restartPod(0);
            for (int i = 1; i <= 4; i++) {
                pods.stopPod(i);
            }
            assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("k")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(503);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
                    });
            for (int i = 1; i <= 4; i++) {
                pods.restartPod(i);
            }
            assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("k")).asByteArray()).isEqualTo(body);
        }
    }
}
