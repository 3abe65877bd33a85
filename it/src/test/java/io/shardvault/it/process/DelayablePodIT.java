package io.shardvault.it.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link ProcessCluster#delayPod}, the chaos run's slow pod: the coordinator reaches a delayable pod through a
 * proxy in the test's JVM from its first start, so a delay there holds the pod's answers back. A write that has
 * its quorum waits 200 ms (the straggler grace) for the pod, then records its shard missing; once the delay is
 * gone the pod answers in time again.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DelayablePodIT {
    private static final String BUCKET = "slow";
    private static final String MISSING = "shardvault_data_write_missing_shards_total";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aDelayedPodMissesWritesThatHaveTheirQuorumAndCatchesUpOnceTheDelayIsGone() throws Exception {
        ProcessCluster.Options d = ProcessCluster.Options.defaults();
        // 2+1 in one pod process: a write's quorum is 2 of 3 pods, so it goes on without the delayed one.
        ProcessCluster.Options options = new ProcessCluster.Options(1, 1, 3, "2+1", d.podConf(),
                List.of("stash.threshold = 1KiB"), 1).withDelayablePods(2);
        byte[] body = new byte[64 << 10];
        new Random(23).nextBytes(body);
        try (ProcessCluster cluster = ProcessCluster.start(dir, options); S3Client s3 = cluster.s3Client()) {
            s3.createBucket(b -> b.bucket(BUCKET));
            s3.putObject(b -> b.bucket(BUCKET).key("before"), RequestBody.fromBytes(body));
            assertThat(missingShards(cluster)).as("shards missed with every pod on time").isZero();

            cluster.delayPod(2, Duration.ofSeconds(5));
            s3.putObject(b -> b.bucket(BUCKET).key("slow"), RequestBody.fromBytes(body));
            double missed = missingShards(cluster);
            assertThat(missed).as("shards missed while pod 2 is slow").isPositive();

            cluster.delayPod(2, Duration.ZERO);
            s3.putObject(b -> b.bucket(BUCKET).key("after"), RequestBody.fromBytes(body));
            assertThat(missingShards(cluster)).as("shards missed once pod 2 is on time again").isEqualTo(missed);
            for (String key : List.of("before", "slow", "after")) {
                assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()).as(key).isEqualTo(body);
            }
        }
    }

    private static double missingShards(ProcessCluster cluster) throws Exception {
        return PrometheusText.parse(cluster.coordinatorMetrics()).sum(MISSING).orElse(0.0);
    }
}
