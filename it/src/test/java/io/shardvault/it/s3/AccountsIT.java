package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.Catalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Accounts and restricted keys against a real cluster with AWS SDK v2 clients (issue #21): two accounts
 * with the same display name never see each other's buckets; a read-only key writes nothing; a
 * bucket-scoped key sees and touches its bucket only. Every refusal is a 403 {@code AccessDenied}, and the
 * owner's own key then finds everything as it was.
 */
@Timeout(300)
class AccountsIT {
    private static final byte[] CONTENT = "the account's bytes".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER = "someone else's bytes".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path dir;
    private static S3Cluster cluster;
    private static final List<AutoCloseable> CLOSE = new ArrayList<>();
    /** Accounts A and B are both named "team". */
    private static Account a;
    private static Account b;
    private static S3Client keyA;
    private static S3Client keyB;

    @BeforeAll
    static void start() throws Exception {
        cluster = S3Cluster.start(dir);
        CLOSE.add(cluster);
        a = cluster.catalog().createAccount("team").get(30, TimeUnit.SECONDS);
        b = cluster.catalog().createAccount("team").get(30, TimeUnit.SECONDS);
        keyA = client(a, Optional.empty(), false);
        keyB = client(b, Optional.empty(), false);
        keyA.createBucket(r -> r.bucket("a-data"));
        keyA.putObject(r -> r.bucket("a-data").key("obj"), RequestBody.fromBytes(CONTENT));
        keyA.createBucket(r -> r.bucket("a-other"));
        keyA.putObject(r -> r.bucket("a-other").key("obj"), RequestBody.fromBytes(OTHER));
        keyA.createBucket(r -> r.bucket("a-locked").objectLockEnabledForBucket(true));
        keyA.putObject(r -> r.bucket("a-locked").key("obj"), RequestBody.fromBytes(CONTENT));
        keyB.createBucket(r -> r.bucket("b-data"));
        keyB.putObject(r -> r.bucket("b-data").key("obj"), RequestBody.fromBytes(OTHER));
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = CLOSE.size() - 1; i >= 0; i--) {
            CLOSE.get(i).close();
        }
    }

    private static S3Client client(Account account, Optional<String> bucket, boolean readOnly) throws Exception {
        Catalog catalog = cluster.catalog();
        AccessKey k = catalog.createAccessKey(account.id(), false, bucket, readOnly).get(30, TimeUnit.SECONDS);
        S3Client c = cluster.syncClient(k.accessKeyId(), k.secretKey());
        CLOSE.add(c);
        return c;
    }

    /** Fails unless {@code call} is answered 403 AccessDenied. */
    static void assertDenied(Executable call) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).as(e.getMessage()).isEqualTo(403);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
        });
    }

    /** HEAD answers carry no body: the status is all there is. */
    private static void assertHeadDenied(Executable call) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.statusCode()).as(e.getMessage()).isEqualTo(403));
    }

    private static List<String> names(S3Client c) {
        return c.listBuckets().buckets().stream().map(Bucket::name).toList();
    }

    private static List<String> keys(String bucket) {
        return keyA.listObjectsV2(r -> r.bucket(bucket)).contents().stream().map(S3Object::key).toList();
    }

    /** What key A finds in A's buckets after each refused attempt: exactly what it wrote. */
    private static void assertAUnchanged() {
        assertThat(keys("a-data")).containsExactly("obj");
        assertThat(keys("a-other")).containsExactly("obj");
        assertThat(keyA.getObjectAsBytes(r -> r.bucket("a-data").key("obj")).asByteArray()).isEqualTo(CONTENT);
        assertThat(keyA.getObjectAsBytes(r -> r.bucket("a-other").key("obj")).asByteArray()).isEqualTo(OTHER);
        assertThat(keyA.getBucketVersioning(r -> r.bucket("a-data")).status()).isNull();
        assertThat(keyA.listMultipartUploads(r -> r.bucket("a-data")).uploads()).isEmpty();
        assertThat(keyA.getObjectLegalHold(r -> r.bucket("a-locked").key("obj")).legalHold().status())
                .isNotEqualTo(ObjectLockLegalHoldStatus.ON);
    }

    @Test
    void accountsWithTheSameNameNeverSeeEachOthersBuckets() {
        assertThat(a.name()).isEqualTo(b.name());
        assertThat(a.id()).isNotEqualTo(b.id());
        assertThat(names(keyA)).containsExactly("a-data", "a-locked", "a-other");
        assertThat(names(keyB)).containsExactly("b-data");

        assertDenied(() -> keyB.listObjectsV2(r -> r.bucket("a-data")));
        assertDenied(() -> keyB.listObjectVersions(r -> r.bucket("a-data")));
        assertDenied(() -> keyB.getObject(r -> r.bucket("a-data").key("obj")));
        assertHeadDenied(() -> keyB.headObject(r -> r.bucket("a-data").key("obj")));
        assertHeadDenied(() -> keyB.headBucket(r -> r.bucket("a-data")));
        assertDenied(() -> keyB.putObject(r -> r.bucket("a-data").key("obj"), RequestBody.fromBytes(OTHER)));
        assertDenied(() -> keyB.putObject(r -> r.bucket("a-data").key("new"), RequestBody.fromBytes(OTHER)));
        assertDenied(() -> keyB.deleteObject(r -> r.bucket("a-data").key("obj")));
        assertDenied(() -> keyB.deleteObjects(r -> r.bucket("a-data")
                .delete(d -> d.objects(ObjectIdentifier.builder().key("obj").build()))));
        assertDenied(() -> keyB.createMultipartUpload(r -> r.bucket("a-data").key("mp")));
        assertDenied(() -> keyB.putBucketVersioning(r -> r.bucket("a-data")
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED))));
        assertDenied(() -> keyB.putObjectAcl(r -> r.bucket("a-data").key("obj").acl(ObjectCannedACL.PUBLIC_READ)));
        assertDenied(() -> keyB.putObjectLegalHold(r -> r.bucket("a-locked").key("obj")
                .legalHold(h -> h.status(ObjectLockLegalHoldStatus.ON))));
        assertDenied(() -> keyB.deleteBucket(r -> r.bucket("a-other")));
        // Copies from A's bucket into B's own, and from B's into A's.
        assertDenied(() -> keyB.copyObject(r -> r.sourceBucket("a-data").sourceKey("obj")
                .destinationBucket("b-data").destinationKey("stolen")));
        assertDenied(() -> keyB.copyObject(r -> r.sourceBucket("b-data").sourceKey("obj")
                .destinationBucket("a-data").destinationKey("planted")));

        assertAUnchanged();
        assertThat(keyB.listObjectsV2(r -> r.bucket("b-data")).contents()).extracting(S3Object::key)
                .containsExactly("obj");
    }

    @Test
    void aReadOnlyKeyReadsItsAccountsBucketsAndWritesNothing() throws Exception {
        S3Client reader = client(a, Optional.empty(), true);
        assertThat(names(reader)).containsExactly("a-data", "a-locked", "a-other");
        assertThat(reader.getObjectAsBytes(r -> r.bucket("a-data").key("obj")).asByteArray()).isEqualTo(CONTENT);
        assertThat(reader.headObject(r -> r.bucket("a-data").key("obj")).contentLength()).isEqualTo(CONTENT.length);
        assertThat(reader.listObjectsV2(r -> r.bucket("a-other")).contents()).extracting(S3Object::key)
                .containsExactly("obj");

        assertDenied(() -> reader.putObject(r -> r.bucket("a-data").key("obj"), RequestBody.fromBytes(OTHER)));
        assertDenied(() -> reader.putObject(r -> r.bucket("a-data").key("new"), RequestBody.fromBytes(OTHER)));
        assertDenied(() -> reader.deleteObject(r -> r.bucket("a-data").key("obj")));
        assertDenied(() -> reader.deleteObjects(r -> r.bucket("a-data")
                .delete(d -> d.objects(ObjectIdentifier.builder().key("obj").build()))));
        assertDenied(() -> reader.createMultipartUpload(r -> r.bucket("a-data").key("mp")));
        assertDenied(() -> reader.copyObject(r -> r.sourceBucket("a-other").sourceKey("obj")
                .destinationBucket("a-data").destinationKey("copy")));
        assertDenied(() -> reader.putObjectAcl(r -> r.bucket("a-data").key("obj").acl(ObjectCannedACL.PUBLIC_READ)));
        assertDenied(() -> reader.putBucketAcl(r -> r.bucket("a-data").acl("public-read")));
        assertDenied(() -> reader.putBucketVersioning(r -> r.bucket("a-data")
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED))));
        assertDenied(() -> reader.putObjectRetention(r -> r.bucket("a-locked").key("obj")
                .retention(t -> t.mode(ObjectLockRetentionMode.GOVERNANCE)
                        .retainUntilDate(Instant.now().plus(1, ChronoUnit.DAYS)))));
        assertDenied(() -> reader.putObjectLegalHold(r -> r.bucket("a-locked").key("obj")
                .legalHold(h -> h.status(ObjectLockLegalHoldStatus.ON))));
        assertDenied(() -> reader.putBucketLifecycleConfiguration(r -> r.bucket("a-data")
                .lifecycleConfiguration(c -> c.rules(LifecycleRule.builder().id("expire")
                        .filter(f -> f.prefix("")).status("Enabled").expiration(e -> e.days(1)).build()))));
        assertDenied(() -> reader.createBucket(r -> r.bucket("a-new")));
        assertDenied(() -> reader.deleteBucket(r -> r.bucket("a-other")));

        assertAUnchanged();
        // Still no retention on it: S3 answers 404 where none was ever set.
        assertThatThrownBy(() -> keyA.getObjectRetention(r -> r.bucket("a-locked").key("obj")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        assertThat(names(keyA)).containsExactly("a-data", "a-locked", "a-other");
    }

    @Test
    void aBucketScopedKeySeesAndTouchesOnlyItsBucket() throws Exception {
        S3Client scoped = client(a, Optional.of("a-data"), false);
        assertThat(names(scoped)).containsExactly("a-data");
        scoped.putObject(r -> r.bucket("a-data").key("scoped"), RequestBody.fromBytes(OTHER));
        assertThat(scoped.getObjectAsBytes(r -> r.bucket("a-data").key("scoped")).asByteArray()).isEqualTo(OTHER);
        scoped.copyObject(r -> r.sourceBucket("a-data").sourceKey("scoped")
                .destinationBucket("a-data").destinationKey("scoped-copy"));
        scoped.deleteObject(r -> r.bucket("a-data").key("scoped-copy"));
        scoped.deleteObject(r -> r.bucket("a-data").key("scoped"));

        assertDenied(() -> scoped.listObjectsV2(r -> r.bucket("a-other")));
        assertDenied(() -> scoped.getObject(r -> r.bucket("a-other").key("obj")));
        assertHeadDenied(() -> scoped.headBucket(r -> r.bucket("a-other")));
        assertDenied(() -> scoped.putObject(r -> r.bucket("a-other").key("new"), RequestBody.fromBytes(OTHER)));
        assertDenied(() -> scoped.deleteObject(r -> r.bucket("a-other").key("obj")));
        assertDenied(() -> scoped.copyObject(r -> r.sourceBucket("a-other").sourceKey("obj")
                .destinationBucket("a-data").destinationKey("pulled")));
        assertDenied(() -> scoped.copyObject(r -> r.sourceBucket("a-data").sourceKey("obj")
                .destinationBucket("a-other").destinationKey("pushed")));
        assertDenied(() -> scoped.createBucket(r -> r.bucket("a-new")));
        // Another account's bucket is out of scope and not its account's: refused either way.
        assertDenied(() -> scoped.getObject(r -> r.bucket("b-data").key("obj")));

        assertAUnchanged();
        assertThat(names(keyA)).containsExactly("a-data", "a-locked", "a-other");
    }
}
