package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.lifecycle.LifecycleExpirer;
import io.shardvault.coordinator.testing.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketLifecycleConfiguration;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Transition;
import software.amazon.awssdk.services.s3.model.TransitionStorageClass;

/**
 * Lifecycle rules as the AWS SDK v2 sees them, against a real cluster ({@link S3Cluster}) whose expirer
 * counts ages against a clock this test moves: the configuration's round trip, its refusals, and objects and
 * uploads actually expired by a run days "later".
 */
@Timeout(300)
class LifecycleIT {
    @TempDir
    static Path dir;
    private static final ManualClock CLOCK = new ManualClock(Instant.now());
    private static S3Cluster cluster;
    private static S3Client s3;

    @BeforeAll
    static void start() throws Exception {
        // Runs only when the test asks: the scheduled one is a week away.
        cluster = S3Cluster.start(dir, Map.of("lifecycle.interval", "7d"), CLOCK);
        s3 = cluster.syncClient();
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static LifecycleRule expire(String id, String prefix, int days) {
        return LifecycleRule.builder().id(id).filter(f -> f.prefix(prefix)).status(ExpirationStatus.ENABLED)
                .expiration(e -> e.days(days)).build();
    }

    private static void put(String bucket, LifecycleRule... rules) {
        s3.putBucketLifecycleConfiguration(r -> r.bucket(bucket).lifecycleConfiguration(
                BucketLifecycleConfiguration.builder().rules(rules).build()));
    }

    private static int status(Runnable call) {
        try {
            call.run();
        } catch (S3Exception e) {
            return e.statusCode();
        }
        throw new AssertionError("the call succeeded");
    }

    @Test
    void theConfigurationRoundTripsAsTheSdkSeesIt() {
        s3.createBucket(r -> r.bucket("lc-config"));
        assertThatThrownBy(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket("lc-config")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchLifecycleConfiguration");
                });
        LifecycleRule versions = LifecycleRule.builder().id("versions").filter(f -> f.prefix(""))
                .status(ExpirationStatus.ENABLED)
                .noncurrentVersionExpiration(n -> n.noncurrentDays(30).newerNoncurrentVersions(3))
                .expiration(e -> e.expiredObjectDeleteMarker(true))
                .abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(7)).build();
        LifecycleRule off = LifecycleRule.builder().id("off").filter(f -> f.prefix("tmp/"))
                .status(ExpirationStatus.DISABLED).expiration(e -> e.days(1)).build();
        put("lc-config", expire("logs", "logs/", 30), versions, off);

        List<LifecycleRule> got = s3.getBucketLifecycleConfiguration(r -> r.bucket("lc-config")).rules();
        assertThat(got).hasSize(3);
        assertThat(got.get(0).id()).isEqualTo("logs");
        assertThat(got.get(0).filter().prefix()).isEqualTo("logs/");
        assertThat(got.get(0).expiration().days()).isEqualTo(30);
        assertThat(got.get(1).noncurrentVersionExpiration().noncurrentDays()).isEqualTo(30);
        assertThat(got.get(1).noncurrentVersionExpiration().newerNoncurrentVersions()).isEqualTo(3);
        assertThat(got.get(1).expiration().expiredObjectDeleteMarker()).isTrue();
        assertThat(got.get(1).abortIncompleteMultipartUpload().daysAfterInitiation()).isEqualTo(7);
        assertThat(got.get(2).status()).isEqualTo(ExpirationStatus.DISABLED);

        s3.deleteBucketLifecycle(r -> r.bucket("lc-config"));
        assertThat(status(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket("lc-config")))).isEqualTo(404);
    }

    @Test
    void whatIsNotSupportedIsRefusedNotDropped() {
        s3.createBucket(r -> r.bucket("lc-refused"));
        assertThat(status(() -> put("lc-refused", LifecycleRule.builder().id("t").filter(f -> f.prefix(""))
                .status(ExpirationStatus.ENABLED)
                .transitions(Transition.builder().days(30).storageClass(TransitionStorageClass.GLACIER).build()).build()))).isEqualTo(501);
        assertThat(status(() -> put("lc-refused", LifecycleRule.builder().id("tag")
                .filter(f -> f.tag(t -> t.key("k").value("v"))).status(ExpirationStatus.ENABLED)
                .expiration(e -> e.days(1)).build()))).isEqualTo(501);
        assertThatThrownBy(() -> put("lc-refused", expire("zero", "", 0)))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
                });
        assertThat(status(() -> put("lc-refused", expire("same", "a/", 1), expire("same", "b/", 1)))).isEqualTo(400);
        assertThat(status(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket("lc-refused")))).isEqualTo(404);
    }

    @Test
    void aRunDaysLaterExpiresObjectsAndAbortsUploads() throws Exception {
        s3.createBucket(r -> r.bucket("lc-run"));
        s3.putObject(r -> r.bucket("lc-run").key("logs/old"), RequestBody.fromString("expire me"));
        s3.putObject(r -> r.bucket("lc-run").key("keep/this"), RequestBody.fromString("keep me"));
        String upload = s3.createMultipartUpload(r -> r.bucket("lc-run").key("tmp/big")).uploadId();
        s3.uploadPart(r -> r.bucket("lc-run").key("tmp/big").uploadId(upload).partNumber(1),
                RequestBody.fromString("a part"));
        put("lc-run", expire("logs", "logs/", 2), LifecycleRule.builder().id("uploads").filter(f -> f.prefix("tmp/"))
                .status(ExpirationStatus.ENABLED).abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(1)).build());

        LifecycleExpirer.Run early = cluster.lifecycle().runNow();
        assertThat(early.objectsExpired() + early.uploadsAborted()).isZero();

        CLOCK.advance(Duration.ofDays(4));
        LifecycleExpirer.Run run = cluster.lifecycle().runNow();
        assertThat(run.objectsExpired()).isEqualTo(1);
        assertThat(run.uploadsAborted()).isEqualTo(1);
        assertThat(run.bytesFreed()).isEqualTo("expire me".length() + "a part".length());
        assertThat(status(() -> s3.headObject(r -> r.bucket("lc-run").key("logs/old")))).isEqualTo(404);
        assertThat(s3.getObjectAsBytes(r -> r.bucket("lc-run").key("keep/this")).asUtf8String()).isEqualTo("keep me");
        assertThat(s3.listMultipartUploads(r -> r.bucket("lc-run")).uploads()).isEmpty();
        assertThat(cluster.catalog().usage(Optional.of("lc-run")).get(30, TimeUnit.SECONDS).storedBytes())
                .isEqualTo("keep me".length());
        assertThat(cluster.registry().get("shardvault.lifecycle.objects.expired").counter().count()).isEqualTo(1);
        assertThat(cluster.registry().get("shardvault.lifecycle.uploads.aborted").counter().count()).isEqualTo(1);
    }
}
