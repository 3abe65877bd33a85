package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.catalog.AccessKey;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetention;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * No client, the bucket's owner included, and not even a key allowed to bypass GOVERNANCE retention,
 * can delete a COMPLIANCE-locked version in any way the S3 API allows: DeleteObject by version (with
 * and without {@code x-amz-bypass-governance-retention}), DeleteObjects, an overwrite, DeleteBucket,
 * and shortening, downgrading or removing the retention. GOVERNANCE yields only to the bypass, and
 * only for a key allowed to use it (s3:BypassGovernanceRetention): the bootstrap key, the account's
 * root, and catalog keys created with it. Every refused attempt is followed by a bit-exact read of the
 * locked version. Against a real cluster ({@link S3Cluster}).
 */
@Timeout(300)
class ComplianceLockIT {
    private static final Logger LOG = LoggerFactory.getLogger(ComplianceLockIT.class);
    private static final long SEED = System.nanoTime();

    @TempDir
    static Path dir;
    private static S3Cluster cluster;
    /** The owner's bootstrap key, the account's root: it may bypass GOVERNANCE retention. */
    private static S3Client owner;
    /** A catalog key of the same owner that may bypass GOVERNANCE retention. */
    private static S3Client admin;
    /** A catalog key of the same owner without s3:BypassGovernanceRetention. */
    private static S3Client plain;

    @BeforeAll
    static void start() throws Exception {
        LOG.info("seed {}", SEED);
        cluster = S3Cluster.start(dir, java.util.Map.of());
        owner = cluster.syncClient();
        AccessKey key = cluster.catalog().createAccessKey("admin", true).get(30, TimeUnit.SECONDS);
        admin = cluster.syncClient(key.accessKeyId(), key.secretKey());
        AccessKey without = cluster.catalog().createAccessKey("admin", false).get(30, TimeUnit.SECONDS);
        plain = cluster.syncClient(without.accessKeyId(), without.secretKey());
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {plain, admin, owner, cluster}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    LOG.warn("close failed", e);
                }
            }
        }
    }

    private static byte[] bytes(Random random, int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    private static String lockedBucket(String name) {
        owner.createBucket(b -> b.bucket(name).objectLockEnabledForBucket(true));
        assertThat(owner.getObjectLockConfiguration(b -> b.bucket(name)).objectLockConfiguration().objectLockEnabled())
                .isEqualTo(ObjectLockEnabled.ENABLED);
        return name;
    }

    private static void assertDenied(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).as(e.getMessage()).isEqualTo(403);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
        });
    }

    private static void assertIntact(String bucket, String key, String versionId, byte[] content, Instant until,
                                     ObjectLockRetentionMode mode) {
        assertThat(owner.getObjectAsBytes(b -> b.bucket(bucket).key(key).versionId(versionId)).asByteArray())
                .isEqualTo(content);
        ObjectLockRetention retention = owner.getObjectRetention(b -> b.bucket(bucket).key(key).versionId(versionId))
                .retention();
        assertThat(retention.mode()).isEqualTo(mode);
        assertThat(retention.retainUntilDate()).isEqualTo(until);
    }

    @Test
    void complianceVersionSurvivesEveryDeletePath() {
        Random random = new Random(SEED);
        String bucket = lockedBucket("compliance");
        String key = "backup/chunk-0001";
        byte[] content = bytes(random, 300_000);
        Instant until = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        PutObjectResponse put = owner.putObject(b -> b.bucket(bucket).key(key)
                .objectLockMode(ObjectLockMode.COMPLIANCE).objectLockRetainUntilDate(until), RequestBody.fromBytes(content));
        String v = put.versionId();
        assertThat(v).isNotBlank();

        for (S3Client client : List.of(owner, admin)) {
            // DeleteObject by version, without and with the GOVERNANCE bypass.
            assertDenied(() -> client.deleteObject(b -> b.bucket(bucket).key(key).versionId(v)));
            assertDenied(() -> client.deleteObject(b -> b.bucket(bucket).key(key).versionId(v)
                    .bypassGovernanceRetention(true)));
            // DeleteObjects, without and with the bypass: the version is refused on its own.
            for (boolean bypass : new boolean[] {false, true}) {
                DeleteObjectsResponse batch = client.deleteObjects(b -> b.bucket(bucket).bypassGovernanceRetention(bypass)
                        .delete(Delete.builder().objects(ObjectIdentifier.builder().key(key).versionId(v).build())
                                .build()));
                assertThat(batch.deleted()).isEmpty();
                assertThat(batch.errors()).singleElement().satisfies(e -> {
                    assertThat(e.key()).isEqualTo(key);
                    assertThat(e.versionId()).isEqualTo(v);
                    assertThat(e.code()).isEqualTo("AccessDenied");
                });
            }
            // Shortening, downgrading to GOVERNANCE or removing the retention, with and without the bypass.
            for (boolean bypass : new boolean[] {false, true}) {
                assertDenied(() -> client.putObjectRetention(b -> b.bucket(bucket).key(key).versionId(v)
                        .bypassGovernanceRetention(bypass).retention(r -> r.mode(ObjectLockRetentionMode.COMPLIANCE)
                                .retainUntilDate(until.minus(10, ChronoUnit.MINUTES)))));
                assertDenied(() -> client.putObjectRetention(b -> b.bucket(bucket).key(key).versionId(v)
                        .bypassGovernanceRetention(bypass).retention(r -> r.mode(ObjectLockRetentionMode.GOVERNANCE)
                                .retainUntilDate(until))));
                assertThatThrownBy(() -> client.putObjectRetention(b -> b.bucket(bucket).key(key).versionId(v)
                        .bypassGovernanceRetention(bypass).retention(ObjectLockRetention.builder().build())))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode())
                                .isBetween(400, 403));
            }
            assertIntact(bucket, key, v, content, until, ObjectLockRetentionMode.COMPLIANCE);
        }

        // A delete without a version only adds a delete marker; an overwrite only adds a version.
        var marker = owner.deleteObject(b -> b.bucket(bucket).key(key));
        assertThat(marker.deleteMarker()).isTrue();
        byte[] newer = bytes(random, 1000);
        PutObjectResponse overwrite = owner.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(newer));
        assertThat(overwrite.versionId()).isNotEqualTo(v);
        assertThat(owner.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray()).isEqualTo(newer);
        assertIntact(bucket, key, v, content, until, ObjectLockRetentionMode.COMPLIANCE);

        // DeleteBucket: the bucket still holds the locked version, so it stays, and so does the version.
        assertThatThrownBy(() -> owner.deleteBucket(b -> b.bucket(bucket)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(409));
        // Even after every other version and marker is gone.
        owner.deleteObject(b -> b.bucket(bucket).key(key).versionId(overwrite.versionId()));
        owner.deleteObject(b -> b.bucket(bucket).key(key).versionId(marker.versionId()));
        assertThatThrownBy(() -> admin.deleteBucket(b -> b.bucket(bucket)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(409));
        assertIntact(bucket, key, v, content, until, ObjectLockRetentionMode.COMPLIANCE);

        // Extending is allowed, and the longer date then holds.
        Instant later = until.plus(1, ChronoUnit.DAYS);
        owner.putObjectRetention(b -> b.bucket(bucket).key(key).versionId(v).retention(r -> r
                .mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(later)));
        assertDenied(() -> admin.putObjectRetention(b -> b.bucket(bucket).key(key).versionId(v)
                .bypassGovernanceRetention(true).retention(r -> r.mode(ObjectLockRetentionMode.COMPLIANCE)
                        .retainUntilDate(until))));
        assertIntact(bucket, key, v, content, later, ObjectLockRetentionMode.COMPLIANCE);
    }

    @Test
    void governanceYieldsOnlyToAnAllowedBypass() {
        Random random = new Random(SEED + 1);
        String bucket = lockedBucket("governance");
        byte[] content = bytes(random, 70_000);
        Instant until = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        String v = owner.putObject(b -> b.bucket(bucket).key("g").objectLockMode(ObjectLockMode.GOVERNANCE)
                .objectLockRetainUntilDate(until), RequestBody.fromBytes(content)).versionId();

        assertDenied(() -> owner.deleteObject(b -> b.bucket(bucket).key("g").versionId(v)));
        assertDenied(() -> admin.deleteObject(b -> b.bucket(bucket).key("g").versionId(v)));
        // A key without s3:BypassGovernanceRetention asks for the bypass: refused, and told what it lacks.
        assertThatThrownBy(() -> plain.deleteObject(b -> b.bucket(bucket).key("g").versionId(v)
                .bypassGovernanceRetention(true))).isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                    assertThat(e.awsErrorDetails().errorMessage()).contains("s3:BypassGovernanceRetention");
                });
        assertThat(plain.deleteObjects(b -> b.bucket(bucket).bypassGovernanceRetention(true).delete(Delete.builder()
                .objects(ObjectIdentifier.builder().key("g").versionId(v).build()).build())).errors())
                .singleElement().satisfies(e -> assertThat(e.code()).isEqualTo("AccessDenied"));
        assertDenied(() -> plain.putObjectRetention(b -> b.bucket(bucket).key("g").versionId(v)
                .bypassGovernanceRetention(true).retention(r -> r.mode(ObjectLockRetentionMode.GOVERNANCE)
                        .retainUntilDate(until.minus(5, ChronoUnit.MINUTES)))));
        assertDenied(() -> admin.putObjectRetention(b -> b.bucket(bucket).key("g").versionId(v)
                .retention(r -> r.mode(ObjectLockRetentionMode.GOVERNANCE)
                        .retainUntilDate(until.minus(5, ChronoUnit.MINUTES)))));
        assertIntact(bucket, "g", v, content, until, ObjectLockRetentionMode.GOVERNANCE);

        // The allowed key shortens it with the bypass, then deletes the version with the bypass.
        Instant shorter = until.minus(5, ChronoUnit.MINUTES);
        admin.putObjectRetention(b -> b.bucket(bucket).key("g").versionId(v).bypassGovernanceRetention(true)
                .retention(r -> r.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(shorter)));
        assertIntact(bucket, "g", v, content, shorter, ObjectLockRetentionMode.GOVERNANCE);
        admin.deleteObject(b -> b.bucket(bucket).key("g").versionId(v).bypassGovernanceRetention(true));
        assertThatThrownBy(() -> owner.headObject(b -> b.bucket(bucket).key("g").versionId(v)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));

        // DeleteObjects with the bypass, by the allowed key.
        String w = owner.putObject(b -> b.bucket(bucket).key("h").objectLockMode(ObjectLockMode.GOVERNANCE)
                .objectLockRetainUntilDate(until), RequestBody.fromBytes(content)).versionId();
        DeleteObjectsResponse batch = admin.deleteObjects(b -> b.bucket(bucket).bypassGovernanceRetention(true)
                .delete(Delete.builder().objects(ObjectIdentifier.builder().key("h").versionId(w).build()).build()));
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.deleted()).singleElement().satisfies(d -> assertThat(d.versionId()).isEqualTo(w));

        // The bootstrap key, the only key a new cluster has, holds the permission, as AWS's root does.
        for (String k : List.of("i", "j")) {
            owner.putObject(b -> b.bucket(bucket).key(k).objectLockMode(ObjectLockMode.GOVERNANCE)
                    .objectLockRetainUntilDate(until), RequestBody.fromBytes(content));
        }
        String i = owner.headObject(b -> b.bucket(bucket).key("i")).versionId();
        String j = owner.headObject(b -> b.bucket(bucket).key("j")).versionId();
        owner.putObjectRetention(b -> b.bucket(bucket).key("i").versionId(i).bypassGovernanceRetention(true)
                .retention(r -> r.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(shorter)));
        owner.deleteObject(b -> b.bucket(bucket).key("i").versionId(i).bypassGovernanceRetention(true));
        assertThat(owner.deleteObjects(b -> b.bucket(bucket).bypassGovernanceRetention(true).delete(Delete.builder()
                .objects(ObjectIdentifier.builder().key("j").versionId(j).build()).build())).errors()).isEmpty();
        owner.deleteBucket(b -> b.bucket(bucket));
    }
}
