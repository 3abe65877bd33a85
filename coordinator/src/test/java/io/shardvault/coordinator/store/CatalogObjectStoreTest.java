package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.atomic.AtomicLong;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.coordinator.admin.AccessKeysMXBean;
import io.shardvault.coordinator.admin.NewAccessKeyView;
import io.shardvault.coordinator.admin.internal.AccessKeysBean;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.ObjectSummary;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.CompleteMultipartUploadRequest;
import io.shardvault.s3.CompletedPart;
import io.shardvault.s3.CopyObjectRequest;
import io.shardvault.s3.CopySource;
import io.shardvault.s3.CreateMultipartUploadRequest;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.MetadataDirective;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectIdentifier;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectLockConfiguration;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.RetentionMode;
import io.shardvault.s3.UploadPartCopyRequest;
import io.shardvault.s3.UploadPartRequest;
import io.shardvault.s3.VersioningStatus;
import io.shardvault.s3.WriteCondition;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The S3 layer's storage over a real single-peer catalog and a real vault. */
@Timeout(300)
class CatalogObjectStoreTest {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogObjectStoreTest.class);
    private static final Caller ALICE = new Caller("AKALICE", "alice");
    private static final Caller BOB = new Caller("AKBOB", "bob");
    /** Not us-east-1, so a store that ignored its configured region would show. */
    private static final String REGION = "eu-central-1";
    private static final ObjectName KEYS = MBeanRegistrations.name("AccessKeys", "accessKeys");
    /** Alice's account root: the coordinator's bootstrap key, not kept in the catalog. */
    private static final Caller ROOT = new Caller("AKROOT", "alice");

    @TempDir
    static Path dir;
    static MiniCluster cluster;
    static CatalogServer catalogServer;
    /** The catalog's meters: how many calls a request made. */
    static final SimpleMeterRegistry CATALOG_METRICS = new SimpleMeterRegistry();
    static FileReaper reaper;
    /** The reaper's clock: its grace passes only when a test moves it. */
    static final AtomicLong reaperNanos = new AtomicLong();
    static final Duration REAPER_GRACE = Duration.ofMinutes(5);
    static CatalogObjectStore store;
    static DataPath data;
    static Random random;

    @BeforeAll
    static void start() throws IOException {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        random = new Random(seed);
        cluster = MiniCluster.start(dir.resolve("vault"), MiniCluster.Options.defaults());
        catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"), CATALOG_METRICS);
        data = cluster.newDataPath(MiniCluster.Options.defaults().dataPath(),
                new CatalogFileIdSource(catalogServer.catalog(), 16));
        reaper = new FileReaper(catalogServer.catalog(), data, Duration.ofHours(1), REAPER_GRACE, reaperNanos::get);
        store = new CatalogObjectStore(catalogServer.catalog(), data, null, 1024, REGION, null,
                Optional.of(ROOT.accessKeyId()), new SimpleMeterRegistry());
        join(store.createBucket(ALICE, "photos", REGION, false, CannedAcl.PRIVATE));
    }

    @AfterAll
    static void stop() throws IOException {
        if (reaper != null) {
            reaper.close();
        }
        if (catalogServer != null) {
            catalogServer.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static <T> T join(CompletableFuture<T> f) {
        return f.join();
    }

    static ErrorCode codeOf(CompletableFuture<?> f) {
        return refusal(f).code();
    }

    static ObjectStoreException refusal(CompletableFuture<?> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(ObjectStoreException.class);
            return (ObjectStoreException) e.getCause();
        }
        throw new AssertionError("expected an ObjectStoreException");
    }

    static byte[] get(String bucket, String key, long offset, long length) {
        try (ObjectContent content = join(store.getObject(ALICE, bucket, key, null)).open(offset, length)) {
            return TestBodies.readAll(content);
        }
    }

    static PutObjectRequest put(String bucket, String key, byte[] data) {
        return new PutObjectRequest(bucket, key, new ObjectMetadata("text/plain", null, null, null, null, null,
                Map.of("color", "blue")), TestBodies.of(data), WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE);
    }

    @Test
    void putGetHeadListDeleteAndReap() throws Exception {
        byte[] data = new byte[3 * (1 << 20) + 77];
        random.nextBytes(data);
        var written = join(store.putObject(ALICE, put("photos", "a/b.jpg", data)));
        assertThat(written.etag()).isEqualTo(TestBodies.md5(data));
        assertThat(get("photos", "a/b.jpg", 0, data.length)).isEqualTo(data);
        assertThat(get("photos", "a/b.jpg", (1 << 20) - 3, 10))
                .isEqualTo(Arrays.copyOfRange(data, (1 << 20) - 3, (1 << 20) + 7));
        var info = join(store.headObject(ALICE, "photos", "a/b.jpg", null));
        assertThat(info.size()).isEqualTo(data.length);
        assertThat(info.metadata().contentType()).isEqualTo("text/plain");
        assertThat(info.metadata().userMetadata()).containsEntry("color", "blue");
        var page = join(store.listObjects(ALICE, new ListObjectsRequest("photos", "a/", null, null, 100, false)));
        assertThat(page.objects()).extracting(o -> o.key()).contains("a/b.jpg");

        long fileId = join(catalogServer.catalog().getObjectVersion("photos", "a/b.jpg", java.util.Optional.empty()))
                .parts().get(0).file().fileId();
        join(store.deleteObject(ALICE, "photos", "a/b.jpg", null, false));
        assertThat(codeOf(store.headObject(ALICE, "photos", "a/b.jpg", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(shardFiles(fileId)).isPositive();
        assertThat(join(reaper.pass())).as("deletions acknowledged within the grace").isZero();
        assertThat(shardFiles(fileId)).isPositive();
        drainDeletionsAfterTheGrace();
        assertThat(shardFiles(fileId)).isZero();
        assertThat(join(catalogServer.catalog().pendingFileDeletions(10))).isEmpty();
    }

    /**
     * A GET or HEAD by the bucket's owner costs one catalog read, the bucket and the version together (issue #18:
     * it was two in sequence, the bucket's then the version's), and so does GetObjectAcl (it was three).
     */
    @Test
    void aGetOrHeadByTheOwnerIsOneCatalogRead() {
        byte[] data = new byte[5000];
        random.nextBytes(data);
        join(store.putObject(ALICE, put("photos", "one-read", data)));
        long before = catalogCalls();
        assertThat(join(store.headObject(ALICE, "photos", "one-read", null)).size()).isEqualTo(data.length);
        assertThat(catalogCalls() - before).as("catalog calls of a HEAD").isEqualTo(1);
        before = catalogCalls();
        assertThat(get("photos", "one-read", 0, data.length)).isEqualTo(data);
        assertThat(catalogCalls() - before).as("catalog calls of a GET").isEqualTo(1);
        before = catalogCalls();
        assertThat(codeOf(store.headObject(ALICE, "photos", "no-such-key", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(catalogCalls() - before).as("catalog calls of a HEAD of a missing key").isEqualTo(1);
        before = catalogCalls();
        assertThat(join(store.getObjectAcl(ALICE, "photos", "one-read", null)))
                .isEqualTo(new AccessControl("alice", CannedAcl.PRIVATE));
        assertThat(catalogCalls() - before).as("catalog calls of a GetObjectAcl").isEqualTo(1);
        join(store.deleteObject(ALICE, "photos", "one-read", null, false));
    }

    /**
     * Catalog calls sent so far, counted when they are sent ({@code shardvault.catalog.submissions}: its read
     * timer is stopped only after the caller's future completes, so it can lag behind a joined request).
     */
    private static long catalogCalls() {
        return CATALOG_METRICS.find("shardvault.catalog.submissions").counters().stream()
                .filter(c -> !"fallback".equals(c.getId().getTag("path")))
                .mapToLong(c -> (long) c.count()).sum();
    }

    private static void drainDeletionsAfterTheGrace() {
        reaperNanos.addAndGet(REAPER_GRACE.toNanos());
        for (int pass = 0; pass < 10 && join(reaper.pass()) > 0; pass++) {
            // Drains the deletion queue.
        }
    }

    /**
     * A GET begun before an overwrite reads the old object to its end, as S3 serves it: the reaper keeps a
     * released file's shards for its grace. Without it the file was deleted under the read (issue #23, bug 3).
     */
    @Test
    void aGetBegunBeforeAnOverwriteReadsTheOldObjectToItsEnd() throws Exception {
        byte[] old = new byte[40 << 20];
        random.nextBytes(old);
        join(store.putObject(ALICE, put("photos", "restore.vbk", old)));
        long fileId = join(catalogServer.catalog().getObjectVersion("photos", "restore.vbk",
                java.util.Optional.empty())).parts().get(0).file().fileId();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (ObjectContent content = join(store.getObject(ALICE, "photos", "restore.vbk", null)).open(0, old.length)) {
            ByteBuf first = join(content.read());
            got.writeBytes(ByteBufUtil.getBytes(first));
            first.release();
            join(store.putObject(ALICE, put("photos", "restore.vbk", "the next backup".getBytes())));
            for (int pass = 0; pass < 3; pass++) {
                join(reaper.pass());
            }
            got.writeBytes(TestBodies.readAll(content));
        }
        assertThat(got.toByteArray()).isEqualTo(old);
        assertThat(shardFiles(fileId)).isPositive();
        drainDeletionsAfterTheGrace();
        assertThat(shardFiles(fileId)).isZero();
    }

    @Test
    void replacingAnObjectReleasesTheOldFile() {
        byte[] one = "first".getBytes();
        byte[] two = "second version".getBytes();
        join(store.putObject(ALICE, put("photos", "same", one)));
        join(store.putObject(ALICE, put("photos", "same", two)));
        assertThat(get("photos", "same", 0, two.length)).isEqualTo(two);
        assertThat(join(catalogServer.catalog().pendingFileDeletions(100))).isNotEmpty();
    }

    @Test
    void multipartUploadAssemblesItsParts() {
        var upload = join(store.createMultipartUpload(ALICE, new CreateMultipartUploadRequest("photos", "big",
                ObjectMetadata.EMPTY, null, null, ObjectLock.NONE, CannedAcl.PRIVATE)));
        byte[] p1 = new byte[1_500_000];
        byte[] p2 = new byte[2_000];
        random.nextBytes(p1);
        random.nextBytes(p2);
        var i1 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "big", upload.uploadId(), 1,
                TestBodies.of(p1))));
        var i2 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "big", upload.uploadId(), 2,
                TestBodies.of(p2))));
        assertThat(join(store.listParts(ALICE, "photos", "big", upload.uploadId(), 0, 10)).parts()).hasSize(2);
        var done = join(store.completeMultipartUpload(ALICE, new CompleteMultipartUploadRequest("photos", "big",
                upload.uploadId(), List.of(new CompletedPart(1, i1.etag(), null),
                new CompletedPart(2, "\"" + i2.etag() + "\"", null)), WriteCondition.NONE, null)));
        assertThat(done.etag()).endsWith("-2");
        byte[] all = new byte[p1.length + p2.length];
        System.arraycopy(p1, 0, all, 0, p1.length);
        System.arraycopy(p2, 0, all, p1.length, p2.length);
        assertThat(get("photos", "big", 0, all.length)).isEqualTo(all);
        assertThat(get("photos", "big", p1.length - 5, 10)).isEqualTo(Arrays.copyOfRange(all, p1.length - 5,
                p1.length + 5));
        assertThat(join(store.headObject(ALICE, "photos", "big", null)).partsCount()).isEqualTo(2);
    }

    /**
     * Issue #23's nemesis: a CompleteMultipartUpload that committed answered NoSuchVersion when a write to its key
     * replaced the new version (an unversioned bucket's null version) before the store read it back. Here the
     * catalog deletes the key as soon as the commit is done, as a concurrent DeleteObject would.
     */
    @Test
    void aCompletedUploadIsAnsweredAsCompletedWhenAnotherWriteReplacesItAtOnce() {
        Catalog real = catalogServer.catalog();
        Catalog racing = (Catalog) Proxy.newProxyInstance(Catalog.class.getClassLoader(), new Class<?>[] {Catalog.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (!method.getName().equals("completeMultipartUpload")) {
                        return result;
                    }
                    return ((CompletableFuture<?>) result).thenCompose(committed -> real.deleteObject(
                            (String) args[0], (String) args[1], Optional.empty()).thenApply(deleted -> committed));
                });
        CatalogObjectStore raced = new CatalogObjectStore(racing, data, null, 1024, REGION, null,
                Optional.of(ROOT.accessKeyId()), new SimpleMeterRegistry());
        var upload = join(raced.createMultipartUpload(ALICE, new CreateMultipartUploadRequest("photos", "raced",
                ObjectMetadata.EMPTY, null, null, ObjectLock.NONE, CannedAcl.PRIVATE)));
        byte[] part = new byte[2_000];
        random.nextBytes(part);
        var uploaded = join(raced.uploadPart(ALICE, new UploadPartRequest("photos", "raced", upload.uploadId(), 1,
                TestBodies.of(part))));

        var done = join(raced.completeMultipartUpload(ALICE, new CompleteMultipartUploadRequest("photos", "raced",
                upload.uploadId(), List.of(new CompletedPart(1, uploaded.etag(), null)), WriteCondition.NONE, null)));

        assertThat(done.etag()).endsWith("-1");
        assertThat(done.size()).isEqualTo(part.length);
        assertThat(codeOf(store.headObject(ALICE, "photos", "raced", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
    }

    @Test
    void copyObjectCopiesBytesAndMetadata() {
        byte[] data = new byte[200_000];
        random.nextBytes(data);
        join(store.putObject(ALICE, put("photos", "src", data)));
        var copied = join(store.copyObject(ALICE, new CopyObjectRequest(new CopySource("photos", "src", null, null,
                null, null, null), "photos", "dst", MetadataDirective.COPY, ObjectMetadata.EMPTY, WriteCondition.NONE,
                ObjectLock.NONE, CannedAcl.PRIVATE)));
        assertThat(copied.result().etag()).isEqualTo(TestBodies.md5(data));
        assertThat(get("photos", "dst", 0, data.length)).isEqualTo(data);
        assertThat(join(store.headObject(ALICE, "photos", "dst", null)).metadata().userMetadata())
                .containsEntry("color", "blue");
    }

    /** The chunk the catalog recorded for each part of the latest version of {@code key}. */
    static List<Integer> recordedChunks(String key) {
        return join(catalogServer.catalog().getObjectVersion("photos", key, java.util.Optional.empty())).parts()
                .stream().map(p -> p.file().layout().chunkBytes()).toList();
    }

    @Test
    void everyWritePathRecordsTheLargeChunkItCutWithAndReadsUseIt() {
        int mib = 1 << 20;
        int large = 256 * 1024;
        int vaultChunk = cluster.vault().layout().chunkBytes();
        // PutObject: 9 MiB and 5 bytes, three 4 MiB stripes of 256 KiB chunks.
        byte[] data = new byte[9 * mib + 5];
        random.nextBytes(data);
        join(store.putObject(ALICE, put("photos", "large", data)));
        assertThat(recordedChunks("large")).containsExactly(large);
        assertThat(get("photos", "large", 0, data.length)).isEqualTo(data);
        assertThat(get("photos", "large", 4L * mib - 7, large + 14))
                .isEqualTo(Arrays.copyOfRange(data, 4 * mib - 7, 4 * mib + large + 7));

        // CopyObject: a new file, cut like any other of its size.
        join(store.copyObject(ALICE, new CopyObjectRequest(new CopySource("photos", "large", null, null, null, null,
                null), "photos", "large-copy", MetadataDirective.COPY, ObjectMetadata.EMPTY, WriteCondition.NONE,
                ObjectLock.NONE, CannedAcl.PRIVATE)));
        assertThat(recordedChunks("large-copy")).containsExactly(large);
        assertThat(get("photos", "large-copy", 0, data.length)).isEqualTo(data);

        // Multipart: a large uploaded part, a large copied part (UploadPartCopy), a small last part.
        var upload = join(store.createMultipartUpload(ALICE, new CreateMultipartUploadRequest("photos", "large-mp",
                ObjectMetadata.EMPTY, null, null, ObjectLock.NONE, CannedAcl.PRIVATE)));
        byte[] p1 = Arrays.copyOfRange(data, 0, 5 * mib + 3);
        byte[] p3 = Arrays.copyOfRange(data, 100, 2_100);
        int copyFrom = mib + 11;
        int copyTo = copyFrom + 6 * mib;
        var i1 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "large-mp", upload.uploadId(), 1,
                TestBodies.of(p1))));
        var i2 = join(store.uploadPartCopy(ALICE, new UploadPartCopyRequest("photos", "large-mp", upload.uploadId(), 2,
                new CopySource("photos", "large", null, null, null, null, null), copyFrom, copyTo - 1)));
        var i3 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "large-mp", upload.uploadId(), 3,
                TestBodies.of(p3))));
        join(store.completeMultipartUpload(ALICE, new CompleteMultipartUploadRequest("photos", "large-mp",
                upload.uploadId(), List.of(new CompletedPart(1, i1.etag(), null), new CompletedPart(2, i2.etag(), null),
                new CompletedPart(3, i3.etag(), null)), WriteCondition.NONE, null)));
        assertThat(recordedChunks("large-mp")).containsExactly(large, large, vaultChunk);
        byte[] all = new byte[p1.length + (copyTo - copyFrom) + p3.length];
        System.arraycopy(p1, 0, all, 0, p1.length);
        System.arraycopy(data, copyFrom, all, p1.length, copyTo - copyFrom);
        System.arraycopy(p3, 0, all, all.length - p3.length, p3.length);
        assertThat(get("photos", "large-mp", 0, all.length)).isEqualTo(all);
        // Across the border of parts 1 and 2 and of part 2's two stripes.
        long border = p1.length - 9;
        assertThat(get("photos", "large-mp", border, 4L * mib + 20))
                .isEqualTo(Arrays.copyOfRange(all, (int) border, (int) border + 4 * mib + 20));
    }

    @Test
    void bucketsAreInTheConfiguredRegion() {
        assertThat(join(store.headBucket(ALICE, "photos")).region()).isEqualTo(REGION);
        assertThat(join(store.listBuckets(ALICE))).extracting(b -> b.region()).containsOnly(REGION);
    }

    @Test
    void bodiesOfUnknownLengthArePutAndUploadedAsParts() {
        for (int size : new int[] {0, 1000, (1 << 20) + 1, 3 * (1 << 20) + 5}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            var written = join(store.putObject(ALICE, new PutObjectRequest("photos", "chunked", ObjectMetadata.EMPTY,
                    TestBodies.ofUnknownLength(data), WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE)));
            assertThat(written.etag()).isEqualTo(TestBodies.md5(data));
            assertThat(join(store.headObject(ALICE, "photos", "chunked", null)).size()).as("size %d", size)
                    .isEqualTo(size);
            assertThat(get("photos", "chunked", 0, data.length)).as("size %d", size).isEqualTo(data);
        }
        var upload = join(store.createMultipartUpload(ALICE, new CreateMultipartUploadRequest("photos", "chunked-mp",
                ObjectMetadata.EMPTY, null, null, ObjectLock.NONE, CannedAcl.PRIVATE)));
        byte[] p1 = new byte[1_500_000];
        byte[] p2 = new byte[3_000];
        random.nextBytes(p1);
        random.nextBytes(p2);
        var i1 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "chunked-mp", upload.uploadId(), 1,
                TestBodies.ofUnknownLength(p1))));
        var i2 = join(store.uploadPart(ALICE, new UploadPartRequest("photos", "chunked-mp", upload.uploadId(), 2,
                TestBodies.ofUnknownLength(p2))));
        assertThat(i1.size()).isEqualTo(p1.length);
        join(store.completeMultipartUpload(ALICE, new CompleteMultipartUploadRequest("photos", "chunked-mp",
                upload.uploadId(), List.of(new CompletedPart(1, i1.etag(), null), new CompletedPart(2, i2.etag(), null)),
                WriteCondition.NONE, null)));
        byte[] all = new byte[p1.length + p2.length];
        System.arraycopy(p1, 0, all, 0, p1.length);
        System.arraycopy(p2, 0, all, p1.length, p2.length);
        assertThat(get("photos", "chunked-mp", 0, all.length)).isEqualTo(all);
    }

    @Test
    void errorsKeepTheirCodes() {
        TestBodies.Body body = TestBodies.of(new byte[10]);
        assertThat(codeOf(store.putObject(ALICE, new PutObjectRequest("nope", "k", ObjectMetadata.EMPTY, body,
                WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE)))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(body.discarded).isTrue();
        assertThat(codeOf(store.headBucket(BOB, "photos"))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.createBucket(ALICE, "photos", REGION, false, CannedAcl.PRIVATE)))
                .isEqualTo(ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU);
        assertThat(codeOf(store.createBucket(BOB, "photos", REGION, false, CannedAcl.PRIVATE)))
                .isEqualTo(ErrorCode.BUCKET_ALREADY_EXISTS);
        join(store.putObject(ALICE, put("photos", "cond", new byte[] {1})));
        assertThat(codeOf(store.putObject(ALICE, new PutObjectRequest("photos", "cond", ObjectMetadata.EMPTY,
                TestBodies.of(new byte[] {2}), new WriteCondition(null, true), ObjectLock.NONE, CannedAcl.PRIVATE))))
                .isEqualTo(ErrorCode.PRECONDITION_FAILED);
        assertThatThrownBy(() -> join(store.getObject(ALICE, "photos", "missing", null)))
                .hasCauseInstanceOf(ObjectStoreException.class);
    }

    @Test
    void versionedBucketListsEveryVersionAndDeletesByVersion() {
        join(store.createBucket(ALICE, "versioned", "us-east-1", false, CannedAcl.PRIVATE));
        join(store.putObject(ALICE, put("versioned", "k/a", "unversioned".getBytes())));
        join(store.putBucketVersioning(ALICE, "versioned", VersioningStatus.ENABLED));
        assertThat(join(store.getBucketVersioning(ALICE, "versioned"))).isEqualTo(VersioningStatus.ENABLED);
        var v1 = join(store.putObject(ALICE, put("versioned", "k/a", "one".getBytes())));
        var v2 = join(store.putObject(ALICE, put("versioned", "k/a", "two".getBytes())));
        join(store.putObject(ALICE, put("versioned", "k/b", "b".getBytes())));
        join(store.putObject(ALICE, put("versioned", "z/c", "c".getBytes())));
        assertThat(v1.versionId()).isNotNull().isNotEqualTo(v2.versionId());
        var marker = join(store.deleteObject(ALICE, "versioned", "k/b", null, false));
        assertThat(marker.deleteMarker()).isTrue();

        var all = join(store.listObjectVersions(ALICE, new ListVersionsRequest("versioned", "k/", null, null, null,
                1000)));
        assertThat(all.truncated()).isFalse();
        assertThat(all.versions()).extracting(v -> v.key() + "@" + v.versionId() + (v.latest() ? "*" : "")
                + (v.deleteMarker() ? "x" : "")).containsExactly("k/a@" + v2.versionId() + "*",
                "k/a@" + v1.versionId(), "k/a@null", "k/b@" + marker.versionId() + "*x", all.versions().get(4).key()
                + "@" + all.versions().get(4).versionId());
        assertThat(all.versions().get(4).key()).isEqualTo("k/b");

        // Pages of 2 resume exactly where the previous one stopped, across the version-id marker.
        List<String> paged = new java.util.ArrayList<>();
        String keyMarker = null;
        String versionMarker = null;
        for (int i = 0; i < 10; i++) {
            var page = join(store.listObjectVersions(ALICE, new ListVersionsRequest("versioned", "k/", null,
                    keyMarker, versionMarker, 2)));
            page.versions().forEach(v -> paged.add(v.key() + "@" + v.versionId()));
            if (!page.truncated()) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        }
        assertThat(paged).containsExactlyElementsOf(all.versions().stream().map(v -> v.key() + "@" + v.versionId())
                .toList());

        var rolled = join(store.listObjectVersions(ALICE, new ListVersionsRequest("versioned", "", "/", null, null,
                1000)));
        assertThat(rolled.versions()).isEmpty();
        assertThat(rolled.commonPrefixes()).containsExactly("k/", "z/");

        assertThat(get("versioned", "k/a", 0, 3)).isEqualTo("two".getBytes());
        assertThat(join(store.headObject(ALICE, "versioned", "k/a", v1.versionId())).size()).isEqualTo(3);
        var outcomes = join(store.deleteObjects(ALICE, "versioned", List.of(new ObjectIdentifier("k/a",
                v2.versionId()), new ObjectIdentifier("k/a", "null")), false));
        assertThat(outcomes).allSatisfy(o -> assertThat(o.error()).isNull());
        assertThat(get("versioned", "k/a", 0, 3)).isEqualTo("one".getBytes());
        assertThat(codeOf(store.headObject(ALICE, "versioned", "k/a", "null"))).isEqualTo(ErrorCode.NO_SUCH_VERSION);
        assertThat(codeOf(store.listObjectVersions(BOB, new ListVersionsRequest("versioned", "", null, null, null,
                10)))).isEqualTo(ErrorCode.ACCESS_DENIED);
    }

    @Test
    void complianceLockedVersionCannotBeDeletedOrShortened() {
        join(store.createBucket(ALICE, "locked", "us-east-1", true, CannedAcl.PRIVATE));
        assertThat(join(store.getBucketVersioning(ALICE, "locked"))).isEqualTo(VersioningStatus.ENABLED);
        join(store.putObjectLockConfiguration(ALICE, "locked", new ObjectLockConfiguration(true,
                RetentionMode.GOVERNANCE, 3, 0)));
        assertThat(join(store.getObjectLockConfiguration(ALICE, "locked")))
                .isEqualTo(new ObjectLockConfiguration(true, RetentionMode.GOVERNANCE, 3, 0));
        Instant until = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        var w = join(store.putObject(ALICE, new PutObjectRequest("locked", "backup.vbk", ObjectMetadata.EMPTY,
                TestBodies.of("data".getBytes()), WriteCondition.NONE, new ObjectLock(RetentionMode.COMPLIANCE,
                until, false), CannedAcl.PRIVATE)));
        var info = join(store.headObject(ALICE, "locked", "backup.vbk", w.versionId()));
        assertThat(info.lock().mode()).isEqualTo(RetentionMode.COMPLIANCE);
        assertThat(info.lock().retainUntil()).isEqualTo(until);

        assertThat(codeOf(store.deleteObject(ALICE, "locked", "backup.vbk", w.versionId(), true)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        var outcomes = join(store.deleteObjects(ALICE, "locked", List.of(new ObjectIdentifier("backup.vbk",
                w.versionId())), true));
        assertThat(outcomes.get(0).error().code()).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.putObjectRetention(ALICE, "locked", "backup.vbk", w.versionId(),
                new ObjectLock(RetentionMode.COMPLIANCE, until.minusSeconds(60), false), true)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.putObjectRetention(ALICE, "locked", "backup.vbk", w.versionId(), ObjectLock.NONE,
                true))).isEqualTo(ErrorCode.ACCESS_DENIED);
        join(store.putObjectRetention(ALICE, "locked", "backup.vbk", w.versionId(),
                new ObjectLock(RetentionMode.COMPLIANCE, until.plus(Duration.ofDays(7)), false), false));
        assertThat(join(store.headObject(ALICE, "locked", "backup.vbk", null)).lock().retainUntil())
                .isEqualTo(until.plus(Duration.ofDays(7)));
        join(store.putObjectLegalHold(ALICE, "locked", "backup.vbk", w.versionId(), true));
        assertThat(join(store.headObject(ALICE, "locked", "backup.vbk", null)).lock().legalHold()).isTrue();

        // Deleting without a version only adds a marker; the locked version and its bytes stay.
        assertThat(join(store.deleteObject(ALICE, "locked", "backup.vbk", null, false)).deleteMarker()).isTrue();
        assertThat(join(store.headObject(ALICE, "locked", "backup.vbk", w.versionId())).size()).isEqualTo(4);
        assertThat(codeOf(store.deleteBucket(ALICE, "locked"))).isEqualTo(ErrorCode.BUCKET_NOT_EMPTY);

        // The bucket default applies to writes without their own retention.
        var plain = join(store.putObject(ALICE, put("locked", "plain", new byte[] {1})));
        assertThat(join(store.headObject(ALICE, "locked", "plain", plain.versionId())).lock().mode())
                .isEqualTo(RetentionMode.GOVERNANCE);
        // ALICE's key is not allowed to bypass GOVERNANCE, so asking for it changes nothing.
        assertThat(codeOf(store.deleteObject(ALICE, "locked", "plain", plain.versionId(), true)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
    }

    /**
     * s3:BypassGovernanceRetention (issue #17): the root key holds it, a catalog key holds it when
     * granted at creation (over the AccessKeys MXBean, as {@code admin keys create --bypass-governance}
     * does); a refusal names it; it needs the header; COMPLIANCE yields to no key.
     */
    @Test
    void theRootKeyAndGrantedKeysBypassGovernanceButNeverCompliance() throws Exception {
        join(store.createBucket(ALICE, "governed", REGION, true, CannedAcl.PRIVATE));
        join(store.putObjectLockConfiguration(ALICE, "governed", new ObjectLockConfiguration(true,
                RetentionMode.GOVERNANCE, 3, 0)));
        Map<String, String> v = new java.util.HashMap<>();
        for (String key : List.of("a", "b", "c", "d", "e")) {
            v.put(key, join(store.putObject(ALICE, put("governed", key, new byte[] {1}))).versionId());
        }
        ObjectIdentifier b = new ObjectIdentifier("b", v.get("b"));

        // A key without the permission: refused, and told what it lacks.
        for (ObjectStoreException e : List.of(refusal(store.deleteObject(ALICE, "governed", "a", v.get("a"), true)),
                join(store.deleteObjects(ALICE, "governed", List.of(b), true)).get(0).error(),
                refusal(store.putObjectRetention(ALICE, "governed", "c", v.get("c"), ObjectLock.NONE, true)))) {
            assertThat(e.code()).isEqualTo(ErrorCode.ACCESS_DENIED);
            assertThat(e.getMessage()).contains("s3:BypassGovernanceRetention");
        }
        // The root key, with the header: deletes, batch deletes, retention removal.
        join(store.deleteObject(ROOT, "governed", "a", v.get("a"), true));
        assertThat(codeOf(store.headObject(ALICE, "governed", "a", v.get("a")))).isEqualTo(ErrorCode.NO_SUCH_VERSION);
        assertThat(join(store.deleteObjects(ROOT, "governed", List.of(b), true)).get(0).error()).isNull();
        join(store.putObjectRetention(ROOT, "governed", "c", v.get("c"), ObjectLock.NONE, true));
        assertThat(join(store.headObject(ALICE, "governed", "c", v.get("c"))).lock().mode()).isNull();
        // Without the header even the root is refused.
        assertThat(codeOf(store.deleteObject(ROOT, "governed", "d", v.get("d"), false)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);

        // A key granted the permission at creation, over the MXBean.
        AccessKeysBean bean = new AccessKeysBean(catalogServer.catalog());
        Caller granted;
        try (MBeanRegistrations regs = new MBeanRegistrations(MBeanServerFactory.newMBeanServer())) {
            regs.register(KEYS, bean, AccessKeysMXBean.class);
            NewAccessKeyView k = NewAccessKeyView.from((CompositeData) regs.server().invoke(KEYS, "create",
                    new Object[] {"alice", true}, new String[] {String.class.getName(), boolean.class.getName()}));
            assertThat(k.isBypassGovernanceAllowed()).isTrue();
            granted = new Caller(k.getAccessKeyId(), "alice");
            assertThat(bean.list()).filteredOn(view -> view.getAccessKeyId().equals(k.getAccessKeyId()))
                    .singleElement().satisfies(view -> assertThat(view.isBypassGovernanceAllowed()).isTrue());
            assertThat(bean.create("alice").isBypassGovernanceAllowed()).isFalse();
        }
        join(store.deleteObject(granted, "governed", "d", v.get("d"), true));

        // COMPLIANCE stays absolute, for the root key too.
        Instant until = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
        String locked = join(store.putObject(ALICE, new PutObjectRequest("governed", "e", ObjectMetadata.EMPTY,
                TestBodies.of(new byte[] {2}), WriteCondition.NONE, new ObjectLock(RetentionMode.COMPLIANCE, until,
                false), CannedAcl.PRIVATE))).versionId();
        for (Caller c : List.of(ROOT, granted)) {
            ObjectStoreException e = refusal(store.deleteObject(c, "governed", "e", locked, true));
            assertThat(e.code()).isEqualTo(ErrorCode.ACCESS_DENIED);
            assertThat(e.getMessage()).contains("COMPLIANCE").doesNotContain("BypassGovernance");
            assertThat(join(store.deleteObjects(c, "governed", List.of(new ObjectIdentifier("e", locked)), true))
                    .get(0).error().code()).isEqualTo(ErrorCode.ACCESS_DENIED);
            assertThat(codeOf(store.putObjectRetention(c, "governed", "e", locked, ObjectLock.NONE, true)))
                    .isEqualTo(ErrorCode.ACCESS_DENIED);
        }
        assertThat(join(store.headObject(ALICE, "governed", "e", locked)).lock().mode())
                .isEqualTo(RetentionMode.COMPLIANCE);
    }

    /** Issue #17: who gets in where, by the bucket's and the version's canned ACLs. */
    @Test
    void cannedAclsLetOthersInOnlyAsFarAsTheyGrant() throws Exception {
        Caller anonymous = Caller.ANONYMOUS;
        join(store.createBucket(ALICE, "acl-shared", "us-east-1", false, CannedAcl.PRIVATE));
        join(store.putObject(ALICE, new PutObjectRequest("acl-shared", "open", ObjectMetadata.EMPTY,
                TestBodies.of(new byte[] {1, 2, 3}), WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PUBLIC_READ)));
        join(store.putObject(ALICE, put("acl-shared", "closed", new byte[] {4})));
        assertThat(join(store.headObject(anonymous, "acl-shared", "open", null)).size()).isEqualTo(3);
        assertThat(join(store.headObject(BOB, "acl-shared", "open", null)).size()).isEqualTo(3);
        assertThat(codeOf(store.headObject(anonymous, "acl-shared", "closed", null))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.headObject(BOB, "acl-shared", "absent", null))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.headBucket(anonymous, "acl-shared"))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.headBucket(anonymous, "acl-none-such"))).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        assertThat(codeOf(store.getObjectAcl(BOB, "acl-shared", "open", null))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(join(store.getObjectAcl(ALICE, "acl-shared", "open", null)))
                .isEqualTo(new AccessControl("alice", CannedAcl.PUBLIC_READ));

        // authenticated-read: any key lists the bucket (and learns what is missing), the anonymous caller nothing.
        join(store.putBucketAcl(ALICE, "acl-shared", CannedAcl.AUTHENTICATED_READ));
        assertThat(join(store.getBucketAcl(ALICE, "acl-shared")).acl()).isEqualTo(CannedAcl.AUTHENTICATED_READ);
        assertThat(join(store.listObjects(BOB, new ListObjectsRequest("acl-shared", "", null, null, 1000, false)))
                .objects()).extracting(ObjectSummary::key).containsExactly("closed", "open");
        assertThat(codeOf(store.headObject(BOB, "acl-shared", "absent", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(codeOf(store.listObjects(anonymous, new ListObjectsRequest("acl-shared", "", null, null, 1000,
                false)))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(codeOf(store.deleteObject(BOB, "acl-shared", "closed", null, false)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);

        // public-read-write: anyone writes and deletes; what they write belongs to the bucket's owner.
        join(store.putBucketAcl(ALICE, "acl-shared", CannedAcl.PUBLIC_READ_WRITE));
        join(store.putObject(anonymous, put("acl-shared", "dropped", new byte[] {5})));
        assertThat(codeOf(store.headObject(anonymous, "acl-shared", "dropped", null)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(join(store.headObject(ALICE, "acl-shared", "dropped", null)).size()).isEqualTo(1);
        join(store.deleteObject(anonymous, "acl-shared", "dropped", null, false));
        assertThat(codeOf(store.headObject(ALICE, "acl-shared", "dropped", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        assertThat(codeOf(store.putBucketAcl(BOB, "acl-shared", CannedAcl.PRIVATE))).isEqualTo(ErrorCode.ACCESS_DENIED);

        // In place: the data stays.
        join(store.putObjectAcl(ALICE, "acl-shared", "open", null, CannedAcl.PRIVATE));
        assertThat(codeOf(store.headObject(anonymous, "acl-shared", "open", null))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(get("acl-shared", "open", 0, 3)).containsExactly(1, 2, 3);
        for (String key : List.of("open", "closed")) {
            join(store.deleteObject(ALICE, "acl-shared", key, null, false));
        }
        join(store.deleteBucket(ALICE, "acl-shared"));
    }

    /** Ownership before bytes (issue #21): a refused PUT's body is never read, so nothing of it is stored. */
    @Test
    void aPutIntoAnotherOwnersBucketIsRefusedAndLeavesNoShards() throws Exception {
        long before = allShardFiles();
        byte[] data = new byte[300_000];
        random.nextBytes(data);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        TestBodies.Body body = new TestBodies.Body(data) {
            @Override
            public CompletableFuture<ByteBuf> read() {
                reads.incrementAndGet();
                return super.read();
            }
        };
        assertThat(codeOf(store.putObject(BOB, new PutObjectRequest("photos", "bobs", ObjectMetadata.EMPTY, body,
                WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE)))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(reads).as("body reads before the refusal").hasValue(0);
        assertThat(body.discarded).isTrue();
        assertThat(codeOf(store.headObject(ALICE, "photos", "bobs", null))).isEqualTo(ErrorCode.NO_SUCH_KEY);
        awaitShardFiles(before);
    }

    /**
     * A bucket deleted while a PUT's bytes are still arriving refuses the PUT: the commit re-reads
     * the bucket in the state machine, whatever the ownership read beside the write saw.
     */
    @Test
    void aBucketDeletedWhileThePutStreamsRefusesIt() throws Exception {
        join(store.createBucket(ALICE, "short-lived", "us-east-1", false, CannedAcl.PRIVATE));
        long before = allShardFiles();
        byte[] data = new byte[300_000];
        random.nextBytes(data);
        CompletableFuture<Void> gate = new CompletableFuture<>();
        CompletableFuture<Void> firstPieceTaken = new CompletableFuture<>();
        TestBodies.Body body = new TestBodies.Body(data) {
            private int reads;

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (reads++ == 1) {
                    firstPieceTaken.complete(null);
                    return gate.thenCompose(v -> super.read());
                }
                return super.read();
            }
        };
        CompletableFuture<?> put = store.putObject(ALICE, new PutObjectRequest("short-lived", "k",
                ObjectMetadata.EMPTY, body, WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE));
        firstPieceTaken.get(30, java.util.concurrent.TimeUnit.SECONDS);
        join(store.deleteBucket(ALICE, "short-lived"));
        gate.complete(null);
        assertThat(codeOf(put)).isEqualTo(ErrorCode.NO_SUCH_BUCKET);
        awaitShardFiles(before);
    }

    /** Counts shard files; a walk that meets a file being deleted under it starts over. */
    private static long allShardFiles() throws IOException {
        for (int attempt = 0; ; attempt++) {
            try (Stream<Path> files = Files.walk(dir.resolve("vault"))) {
                return files.filter(p -> p.getFileName().toString().endsWith(".shard")).count();
            } catch (java.io.UncheckedIOException e) {
                if (attempt == 20 || !(e.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw e;
                }
            }
        }
    }

    private static void awaitShardFiles(long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (allShardFiles() > expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(allShardFiles()).as("shard files after a refused put").isEqualTo(expected);
    }

    private static long shardFiles(long fileId) throws IOException {
        String name = String.format("%016x.shard", fileId);
        try (Stream<Path> files = Files.walk(dir.resolve("vault"))) {
            return files.filter(p -> p.getFileName().toString().equals(name)).count();
        }
    }
}
