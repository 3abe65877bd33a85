package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The catalog's operations through a real one-peer Ratis group: semantics and typed errors. */
@Timeout(120)
class SinglePeerCatalogTest {
    @TempDir
    static Path dir;
    static CatalogServer server;
    static Catalog catalog;
    static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();
    static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @BeforeAll
    static void start() throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        server = RatisCatalogServer.start(CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000),
                REGISTRY);
        catalog = server.catalog();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static <T> T join(CompletableFuture<T> f) {
        return f.join();
    }

    static ErrorCode codeOf(CompletableFuture<?> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(CatalogException.class);
            return ((CatalogException) e.getCause()).code();
        }
        throw new AssertionError("expected a CatalogException");
    }

    static FileRef file(long id, long size) {
        return new FileRef(1, id, size, LAYOUT, List.of());
    }

    @Test
    void bucketsAndTypedErrors() {
        Bucket b = join(catalog.createBucket("alpha", "AK1", false));
        assertThat(b.versioning()).isEqualTo(VersioningState.UNVERSIONED);
        assertThat(codeOf(catalog.createBucket("alpha", "AK1", false))).isEqualTo(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU);
        assertThat(codeOf(catalog.createBucket("alpha", "AK2", false))).isEqualTo(ErrorCode.BUCKET_ALREADY_EXISTS);
        assertThat(codeOf(catalog.getBucket("nope"))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(codeOf(catalog.getObjectVersion("nope", "k", Optional.empty()))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(codeOf(catalog.getObjectVersion("alpha", "k", Optional.empty()))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(codeOf(catalog.getObjectVersion("alpha", "k", Optional.of("7fffffffffffff00"))))
                .isEqualTo(ErrorCode.NO_SUCH_VERSION);
        assertThat(codeOf(catalog.getObjectVersion("alpha", "k", Optional.of("garbage"))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(join(catalog.listBuckets())).extracting(Bucket::name).contains("alpha");
        join(catalog.putObjectVersion(PutObjectVersion.of("alpha", "x", "e1", ObjectMetadata.EMPTY, file(1, 10))));
        assertThat(codeOf(catalog.deleteBucket("alpha"))).isEqualTo(ErrorCode.BUCKET_NOT_EMPTY);
        join(catalog.deleteObject("alpha", "x", Optional.empty()));
        join(catalog.deleteBucket("alpha"));
        assertThat(codeOf(catalog.getBucket("alpha"))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(codeOf(catalog.lookupAccessKey("missing"))).isEqualTo(ErrorCode.INVALID_ACCESS_KEY);
    }

    @Test
    void unversionedPutReplacesAndReleases() {
        join(catalog.createBucket("plain", "AK1", false));
        PutResult first = join(catalog.putObjectVersion(
                PutObjectVersion.of("plain", "k", "e1", ObjectMetadata.EMPTY, file(10, 5))));
        assertThat(first.versionId()).isEqualTo("null");
        PutResult second = join(catalog.putObjectVersion(
                PutObjectVersion.of("plain", "k", "e2", ObjectMetadata.EMPTY, file(11, 6))));
        assertThat(second.releasedFiles()).extracting(FileRef::fileId).containsExactly(10L);
        ObjectVersion v = join(catalog.getObjectVersion("plain", "k", Optional.empty()));
        assertThat(v.etag()).isEqualTo("e2");
        assertThat(v.size()).isEqualTo(6);
        assertThat(join(catalog.pendingFileDeletions(100))).extracting(d -> d.file().fileId()).contains(10L);
        List<Long> ids = join(catalog.pendingFileDeletions(100)).stream().map(FileDeletion::id).toList();
        join(catalog.ackFileDeletions(ids));
        assertThat(join(catalog.pendingFileDeletions(100))).isEmpty();
    }

    @Test
    void conditionalPuts() {
        join(catalog.createBucket("cond", "AK1", false));
        PutObjectVersion base = PutObjectVersion.of("cond", "k", "e1", ObjectMetadata.EMPTY, file(20, 1));
        PutObjectVersion ifNone = new PutObjectVersion("cond", "k", 1, "e1", ObjectMetadata.EMPTY, base.parts(),
                WriteCondition.IF_NONE_MATCH_ANY, Optional.empty(), false);
        join(catalog.putObjectVersion(ifNone));
        assertThat(codeOf(catalog.putObjectVersion(ifNone))).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        PutObjectVersion ifMatchWrong = new PutObjectVersion("cond", "k", 1, "e2",
                ObjectMetadata.EMPTY, List.of(new FilePart(0, "e2", file(21, 1))), WriteCondition.ifMatch("zz"),
                Optional.empty(), false);
        assertThat(codeOf(catalog.putObjectVersion(ifMatchWrong))).isEqualTo(ErrorCode.PRECONDITION_FAILED);
        PutObjectVersion ifMatch = new PutObjectVersion("cond", "k", 1, "e2",
                ObjectMetadata.EMPTY, List.of(new FilePart(0, "e2", file(21, 1))), WriteCondition.ifMatch("\"e1\""),
                Optional.empty(), false);
        join(catalog.putObjectVersion(ifMatch));
        // Two concurrent If-None-Match writes on a fresh key: exactly one wins.
        List<CompletableFuture<PutResult>> racers = List.of(
                catalog.putObjectVersion(new PutObjectVersion("cond", "race", 1, "a", ObjectMetadata.EMPTY,
                        List.of(new FilePart(0, "a", file(30, 1))), WriteCondition.IF_NONE_MATCH_ANY, Optional.empty(),
                        false)),
                catalog.putObjectVersion(new PutObjectVersion("cond", "race", 1, "b", ObjectMetadata.EMPTY,
                        List.of(new FilePart(0, "b", file(31, 1))), WriteCondition.IF_NONE_MATCH_ANY, Optional.empty(),
                        false)));
        long ok = racers.stream().filter(f -> {
            try {
                f.join();
                return true;
            } catch (CompletionException e) {
                assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.PRECONDITION_FAILED);
                return false;
            }
        }).count();
        assertThat(ok).isEqualTo(1);
    }

    @Test
    void versioningDeleteMarkersAndLocks() {
        join(catalog.createBucket("locked", "AK1", true));
        PutResult v1 = join(catalog.putObjectVersion(new PutObjectVersion("locked", "k", 1, "e1", ObjectMetadata.EMPTY,
                List.of(new FilePart(0, "e1", file(40, 1))), WriteCondition.NONE,
                Optional.of(new Retention(RetentionMode.COMPLIANCE, Instant.now().plus(1, ChronoUnit.DAYS))), false)));
        PutResult v2 = join(catalog.putObjectVersion(
                PutObjectVersion.of("locked", "k", "e2", ObjectMetadata.EMPTY, file(41, 1))));
        assertThat(v2.versionId()).isLessThan(v1.versionId());
        DeleteResult marker = join(catalog.deleteObject("locked", "k", Optional.empty()));
        assertThat(marker.deleteMarker()).isTrue();
        assertThat(codeOf(catalog.getObjectVersion("locked", "k", Optional.empty()))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(join(catalog.getObjectVersion("locked", "k", Optional.of(v1.versionId()))).etag()).isEqualTo("e1");
        assertThat(codeOf(catalog.deleteObject(new DeleteObjectVersion("locked", "k", Optional.of(v1.versionId()), true))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(catalog.setRetention("locked", "k", Optional.of(v1.versionId()), Optional.empty(), true)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(catalog.setVersioning("locked", VersioningState.SUSPENDED)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        join(catalog.deleteObject("locked", "k", Optional.of(v2.versionId())));
        VersionListing all = join(catalog.listObjectVersions(new ListVersionsQuery("locked", "", "", "", "", 100)));
        assertThat(all.versions()).extracting(ObjectVersion::deleteMarker).containsExactly(true, false);
        assertThat(all.versions().get(0).latest()).isTrue();
    }

    @Test
    void multipartCompleteIsAtomic() {
        join(catalog.createBucket("multi", "AK1", false));
        MultipartUpload u = join(catalog.createMultipartUpload("multi", "big", ObjectMetadata.EMPTY, Optional.empty(),
                false));
        String md5a = "0123456789abcdef0123456789abcdef";
        String md5b = "fedcba9876543210fedcba9876543210";
        join(catalog.putPart("multi", "big", u.uploadId(), 1, md5a, file(50, 100)));
        assertThat(join(catalog.putPart("multi", "big", u.uploadId(), 1, md5a, file(51, 100))))
                .extracting(FileRef::fileId).containsExactly(50L);
        join(catalog.putPart("multi", "big", u.uploadId(), 2, md5b, file(52, 10)));
        join(catalog.putPart("multi", "big", u.uploadId(), 3, md5b, file(53, 10)));
        assertThat(join(catalog.listParts("multi", "big", u.uploadId(), 0, 2)).truncated()).isTrue();
        assertThat(codeOf(catalog.completeMultipartUpload("multi", "big", u.uploadId(),
                List.of(new CompletedPart(2, md5b), new CompletedPart(1, md5a)), 5, WriteCondition.NONE)))
                .isEqualTo(ErrorCode.INVALID_PART_ORDER);
        assertThat(codeOf(catalog.completeMultipartUpload("multi", "big", u.uploadId(),
                List.of(new CompletedPart(1, md5b)), 5, WriteCondition.NONE))).isEqualTo(ErrorCode.INVALID_PART);
        assertThat(codeOf(catalog.completeMultipartUpload("multi", "big", u.uploadId(),
                List.of(new CompletedPart(2, md5b), new CompletedPart(3, md5b)), 50, WriteCondition.NONE)))
                .isEqualTo(ErrorCode.ENTITY_TOO_SMALL);
        PutResult done = join(catalog.completeMultipartUpload("multi", "big", u.uploadId(),
                List.of(new CompletedPart(1, md5a), new CompletedPart(2, md5b)), 5, WriteCondition.NONE));
        assertThat(done.etag()).endsWith("-2");
        assertThat(done.releasedFiles()).extracting(FileRef::fileId).containsExactly(53L);
        ObjectVersion v = join(catalog.getObjectVersion("multi", "big", Optional.empty()));
        assertThat(v.size()).isEqualTo(110);
        assertThat(v.parts()).extracting(FilePart::partNumber).containsExactly(1, 2);
        assertThat(codeOf(catalog.abortMultipartUpload("multi", "big", u.uploadId())))
                .isEqualTo(ErrorCode.NO_SUCH_UPLOAD);
    }

    @Test
    void clusterAndKeys() {
        join(catalog.registerVault(new VaultInfo(7, LAYOUT, 1L << 40, List.of())));
        join(catalog.registerPod(new PodInfo(7, 0, "127.0.0.1", 7000)));
        assertThat(codeOf(catalog.registerPod(new PodInfo(7, 6, "127.0.0.1", 7006))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        join(catalog.registerStash(new StashInfo("s1", "127.0.0.1", 8000)));
        assertThat(join(catalog.listVaults())).singleElement().satisfies(v -> assertThat(v.pods()).hasSize(1));
        FileIdRange a = join(catalog.allocateFileIds(7, 100));
        FileIdRange b = join(catalog.allocateFileIds(7, 100));
        assertThat(b.first()).isEqualTo(a.first() + 100);
        join(catalog.createAccount("ops"));
        AccessKey k = join(catalog.createAccessKey("ops", false));
        assertThat(join(catalog.lookupAccessKey(k.accessKeyId())).secretKey()).isEqualTo(k.secretKey());
        assertThat(join(catalog.disableAccessKey(k.accessKeyId())).enabled()).isFalse();
        assertThat(REGISTRY.find("shardvault.catalog.commit").timers()).isNotEmpty();
    }

    @Test
    void uploadsListAndAbortReleasesParts() {
        join(catalog.createBucket("uploads", "AK1", false));
        MultipartUpload a1 = join(catalog.createMultipartUpload("uploads", "a", ObjectMetadata.EMPTY, Optional.empty(),
                false));
        MultipartUpload a2 = join(catalog.createMultipartUpload("uploads", "a", ObjectMetadata.EMPTY, Optional.empty(),
                false));
        MultipartUpload b1 = join(catalog.createMultipartUpload("uploads", "b", ObjectMetadata.EMPTY, Optional.empty(),
                false));
        assertThat(a2.uploadId()).isGreaterThan(a1.uploadId());
        UploadListing page1 = join(catalog.listMultipartUploads("uploads", "", "", "", 2));
        assertThat(page1.uploads()).extracting(MultipartUpload::uploadId).containsExactly(a1.uploadId(), a2.uploadId());
        assertThat(page1.truncated()).isTrue();
        UploadListing page2 = join(catalog.listMultipartUploads("uploads", "", page1.nextKeyMarker(),
                page1.nextUploadIdMarker(), 2));
        assertThat(page2.uploads()).extracting(MultipartUpload::uploadId).containsExactly(b1.uploadId());
        assertThat(page2.truncated()).isFalse();
        assertThat(codeOf(catalog.deleteBucket("uploads"))).isEqualTo(ErrorCode.BUCKET_NOT_EMPTY);
        join(catalog.putPart("uploads", "a", a1.uploadId(), 1, "aa", file(60, 5)));
        join(catalog.putPart("uploads", "a", a1.uploadId(), 2, "bb", file(61, 5)));
        assertThat(join(catalog.abortMultipartUpload("uploads", "a", a1.uploadId())))
                .extracting(FileRef::fileId).containsExactly(60L, 61L);
        assertThat(codeOf(catalog.putPart("uploads", "a", a1.uploadId(), 3, "cc", file(62, 5))))
                .isEqualTo(ErrorCode.NO_SUCH_UPLOAD);
        join(catalog.abortMultipartUpload("uploads", "a", a2.uploadId()));
        join(catalog.abortMultipartUpload("uploads", "b", b1.uploadId()));
        join(catalog.deleteBucket("uploads"));
    }

    @Test
    void legalHoldAndDefaultRetention() {
        join(catalog.createBucket("holds", "AK1", true));
        assertThat(codeOf(catalog.setDefaultRetention("holds", Optional.of(RetentionMode.GOVERNANCE), 0)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        Bucket b = join(catalog.setDefaultRetention("holds", Optional.of(RetentionMode.GOVERNANCE), 1));
        assertThat(b.defaultRetentionDays()).isEqualTo(1);
        PutResult v = join(catalog.putObjectVersion(PutObjectVersion.of("holds", "k", "e", ObjectMetadata.EMPTY,
                file(70, 1))));
        ObjectVersion got = join(catalog.getObjectVersion("holds", "k", Optional.of(v.versionId())));
        assertThat(got.retention()).get().extracting(Retention::mode).isEqualTo(RetentionMode.GOVERNANCE);
        assertThat(codeOf(catalog.deleteObject("holds", "k", Optional.of(v.versionId()))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        join(catalog.setLegalHold("holds", "k", Optional.of(v.versionId()), true));
        // Legal hold beats the governance bypass.
        assertThat(codeOf(catalog.deleteObject(new DeleteObjectVersion("holds", "k", Optional.of(v.versionId()), true))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        join(catalog.setLegalHold("holds", "k", Optional.of(v.versionId()), false));
        DeleteResult gone = join(catalog.deleteObject(
                new DeleteObjectVersion("holds", "k", Optional.of(v.versionId()), true)));
        assertThat(gone.releasedFiles()).extracting(FileRef::fileId).containsExactly(70L);
        assertThat(codeOf(catalog.setLegalHold("plainbucket-missing", "k", Optional.empty(), true)))
                .isEqualTo(ErrorCode.NO_SUCH_BUCKET);
    }

    @Test
    void batchDeleteReportsEachItem() {
        join(catalog.createBucket("batch", "AK1", true));
        PutResult locked = join(catalog.putObjectVersion(new PutObjectVersion("batch", "locked", 1, "e",
                ObjectMetadata.EMPTY, List.of(new FilePart(0, "e", file(80, 1))), WriteCondition.NONE,
                Optional.of(new Retention(RetentionMode.COMPLIANCE, Instant.now().plus(1, ChronoUnit.DAYS))), false)));
        PutResult free = join(catalog.putObjectVersion(
                PutObjectVersion.of("batch", "free", "e", ObjectMetadata.EMPTY, file(81, 1))));
        List<DeleteOutcome> out = join(catalog.deleteObjects(List.of(
                new DeleteObjectVersion("batch", "locked", Optional.of(locked.versionId()), true),
                new DeleteObjectVersion("batch", "free", Optional.of(free.versionId()), false),
                new DeleteObjectVersion("nosuchbucket", "x", Optional.empty(), false),
                new DeleteObjectVersion("batch", "locked", Optional.empty(), false))));
        assertThat(out).hasSize(4);
        assertThat(out.get(0).error()).contains(ErrorCode.ACCESS_DENIED);
        assertThat(out.get(1).result()).get().extracting(DeleteResult::releasedFiles).asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.LIST).hasSize(1);
        assertThat(out.get(2).error()).contains(ErrorCode.NO_SUCH_BUCKET);
        assertThat(out.get(3).result()).get().extracting(DeleteResult::deleteMarker).isEqualTo(true);
        // The refused item changed nothing: the locked version is still there.
        assertThat(join(catalog.getObjectVersion("batch", "locked", Optional.of(locked.versionId()))).etag())
                .isEqualTo("e");
        assertThat(codeOf(catalog.getObjectVersion("batch", "free", Optional.of(free.versionId()))))
                .isEqualTo(ErrorCode.NO_SUCH_VERSION);
    }

    /** This coordinator's own peer leads: its calls go to it in-process, never through the Raft client. */
    @Test
    void callsGoInProcessToTheLocalLeader() {
        join(catalog.createBucket("inproc", "AK1", false)); // applied: the peer leads and is ready
        double local = CatalogTestPeers.submissions(REGISTRY, "local");
        double remote = CatalogTestPeers.submissions(REGISTRY, "remote");
        double fallback = CatalogTestPeers.submissions(REGISTRY, "fallback");
        for (int i = 0; i < 5; i++) {
            join(catalog.putObjectVersion(PutObjectVersion.of("inproc", "k" + i, "e" + i, ObjectMetadata.EMPTY,
                    file(200 + i, 1))));
            assertThat(join(catalog.getObjectVersion("inproc", "k" + i, Optional.empty())).etag()).isEqualTo("e" + i);
        }
        assertThat(codeOf(catalog.getBucket("inproc-nope"))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(CatalogTestPeers.submissions(REGISTRY, "local") - local).isEqualTo(11);
        assertThat(CatalogTestPeers.submissions(REGISTRY, "remote") - remote).isZero();
        assertThat(CatalogTestPeers.submissions(REGISTRY, "fallback") - fallback).isZero();
        assertThat(REGISTRY.find("shardvault.catalog.commit").tag("op", "PUT_OBJECT").timer().count())
                .isGreaterThanOrEqualTo(5);
        assertThat(REGISTRY.find("shardvault.catalog.read").tag("outcome", "no_such_bucket").timers()).isNotEmpty();
    }

    @Test
    void usageFollowsVersionsAndFiles() {
        join(catalog.createBucket("usage", "AK1", false));
        Usage before = join(catalog.usage(Optional.empty()));
        join(catalog.putObjectVersion(PutObjectVersion.of("usage", "a", "e", ObjectMetadata.EMPTY, file(90, 100))));
        join(catalog.putObjectVersion(PutObjectVersion.of("usage", "b", "e", ObjectMetadata.EMPTY, file(91, 50))));
        // Overwriting the null version replaces its bytes.
        join(catalog.putObjectVersion(PutObjectVersion.of("usage", "a", "e", ObjectMetadata.EMPTY, file(92, 30))));
        Usage bucket = join(catalog.usage(Optional.of("usage")));
        assertThat(bucket.storedBytes()).isEqualTo(80);
        assertThat(bucket.objectVersions()).isEqualTo(2);
        Usage after = join(catalog.usage(Optional.empty()));
        assertThat(after.storedBytes() - before.storedBytes()).isEqualTo(80);
        join(catalog.deleteObject("usage", "b", Optional.empty()));
        assertThat(join(catalog.usage(Optional.of("usage"))).storedBytes()).isEqualTo(30);
        assertThat(codeOf(catalog.usage(Optional.of("nosuchbucket")))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
    }

    @Test
    void aBucketAndItsUsageComeInOneRead() {
        join(catalog.createBucket("together", "AK1", false));
        join(catalog.putObjectVersion(PutObjectVersion.of("together", "a", "e", ObjectMetadata.EMPTY, file(95, 70))));
        join(catalog.setBucketQuota("together", 1_000));
        BucketUsage read = join(catalog.bucketUsage("together"));
        assertThat(read.bucket()).isEqualTo(join(catalog.getBucket("together")));
        assertThat(read.usage()).isEqualTo(join(catalog.usage(Optional.of("together"))));
        assertThat(read.usage().quotaBytes()).isEqualTo(1_000);
        assertThat(read.usage().storedBytes()).isEqualTo(70);
        assertThat(codeOf(catalog.bucketUsage("nosuchbucket"))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
    }

    /**
     * A GET's one read: the bucket with the version getObjectVersion answers, or with the error it fails with;
     * only a missing bucket fails the read itself.
     */
    @Test
    void aBucketAndAVersionComeInOneRead() {
        Bucket bucket = join(catalog.createBucket("pair", "AKOWNER", false));
        join(catalog.setVersioning("pair", VersioningState.ENABLED));
        PutResult v1 = join(catalog.putObjectVersion(PutObjectVersion.of("pair", "k", "e1", ObjectMetadata.EMPTY,
                file(300, 10))));
        PutResult v2 = join(catalog.putObjectVersion(PutObjectVersion.of("pair", "k", "e2", ObjectMetadata.EMPTY,
                file(301, 20))));

        BucketVersion latest = join(catalog.bucketVersion("pair", "k", Optional.empty()));
        assertThat(join(BucketVersion.readInTwo(catalog, "pair", "k", Optional.empty()))).as("as an older leader answers")
                .isEqualTo(latest);
        assertThat(latest.bucket()).isEqualTo(join(catalog.getBucket("pair")));
        assertThat(latest.bucket().ownerAccessKeyId()).isEqualTo("AKOWNER");
        assertThat(latest.bucket().id()).isEqualTo(bucket.id());
        assertThat(latest.version()).contains(join(catalog.getObjectVersion("pair", "k", Optional.empty())));
        assertThat(latest.version().orElseThrow().versionId()).isEqualTo(v2.versionId());
        assertThat(latest.error()).isEmpty();
        assertThat(join(latest.answer()).etag()).isEqualTo("e2");
        BucketVersion older = join(catalog.bucketVersion("pair", "k", Optional.of(v1.versionId())));
        assertThat(older.version()).contains(join(catalog.getObjectVersion("pair", "k", Optional.of(v1.versionId()))));
        assertThat(older.version().orElseThrow().latest()).isFalse();

        DeleteResult marker = join(catalog.deleteObject("pair", "k", Optional.empty()));
        assertMissing("pair", "k", Optional.empty(), ErrorCode.NO_SUCH_KEY);
        BucketVersion markerRead = join(catalog.bucketVersion("pair", "k", marker.versionId()));
        assertThat(markerRead.version().orElseThrow().deleteMarker()).isTrue();
        assertMissing("pair", "absent", Optional.empty(), ErrorCode.NO_SUCH_KEY);
        assertMissing("pair", "k", Optional.of("00000000000000ff"), ErrorCode.NO_SUCH_VERSION);
        assertMissing("pair", "k", Optional.of("not-a-version"), ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(catalog.bucketVersion("nosuchbucket", "k", Optional.empty())))
                .isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(codeOf(BucketVersion.readInTwo(catalog, "nosuchbucket", "k", Optional.empty())))
                .isEqualTo(ErrorCode.NO_SUCH_BUCKET);
    }

    /** The pair read carries the bucket and exactly the error (code and message) getObjectVersion fails with. */
    private static void assertMissing(String bucket, String key, Optional<String> versionId, ErrorCode code) {
        BucketVersion read = join(catalog.bucketVersion(bucket, key, versionId));
        assertThat(join(BucketVersion.readInTwo(catalog, bucket, key, versionId))).as("as an older leader answers")
                .isEqualTo(read);
        assertThat(read.bucket()).isEqualTo(join(catalog.getBucket(bucket)));
        assertThat(read.version()).isEmpty();
        assertThat(read.error()).contains(code);
        CompletableFuture<ObjectVersion> alone = catalog.getObjectVersion(bucket, key, versionId);
        assertThat(codeOf(alone)).isEqualTo(code);
        assertThat(codeOf(read.answer())).isEqualTo(code);
        assertThat(read.errorMessage()).isEqualTo(alone.handle((v, t) -> ShardvaultException.unwrap(t).getMessage()).join());
    }
}
