package io.shardvault.coordinator.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.catalog.DeleteIfLatest;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteOutcome;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.catalog.FileLayout;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectMetadata;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.PutObjectVersion;
import io.shardvault.coordinator.catalog.Retention;
import io.shardvault.coordinator.catalog.RetentionMode;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.catalog.WriteCondition;
import io.shardvault.coordinator.testing.ManualClock;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
import io.shardvault.s3.LifecycleConfiguration;
import io.shardvault.s3.LifecycleRule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expirer over a real one-peer Ratis catalog, each rule kind applied by a run at an instant the test
 * sets: versions are committed now (the leader's clock) and the expirer's clock is moved days ahead.
 */
@Timeout(120)
class LifecycleExpirerTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);
    private static final AtomicLong FILE_IDS = new AtomicLong(1);

    @TempDir
    static Path dir;
    static CatalogServer server;
    static Catalog catalog;

    private final ManualClock clock = new ManualClock(Instant.now());
    private final AtomicBoolean leads = new AtomicBoolean(true);
    private final AtomicInteger wakes = new AtomicInteger();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private LifecycleExpirer expirer;

    @BeforeAll
    static void start() throws Exception {
        server = SinglePeerCatalog.start(dir.resolve("catalog"));
        catalog = server.catalog();
        catalog.listBuckets().get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @BeforeEach
    void startExpirer() {
        expirer = LifecycleExpirer.start(new LifecycleConfig(true, Duration.ofDays(7), 100_000, 2), catalog, leads::get,
                wakes::incrementAndGet, new LifecycleMetrics(registry), clock, Duration.ofSeconds(10));
    }

    /** Each test's run counts the whole catalog: no rule outlives its test. */
    @AfterEach
    void stopExpirer() throws Exception {
        expirer.close();
        for (Bucket b : join(catalog.listBuckets())) {
            join(catalog.setBucketLifecycle(b.name(), Optional.empty()));
        }
    }

    private static <T> T join(CompletableFuture<T> f) throws Exception {
        return f.get(30, TimeUnit.SECONDS);
    }

    private static FileRef file(long size) {
        return new FileRef(1, FILE_IDS.getAndIncrement(), size, LAYOUT, List.of());
    }

    private static FileRef put(String bucket, String key, long size) throws Exception {
        FileRef f = file(size);
        join(catalog.putObjectVersion(PutObjectVersion.of(bucket, key, "e" + f.fileId(), ObjectMetadata.EMPTY, f)));
        return f;
    }

    private static void rules(String bucket, LifecycleRule... rules) throws Exception {
        join(catalog.setBucketLifecycle(bucket, Optional.of(new String(new LifecycleConfiguration(List.of(rules)).toXml(),
                StandardCharsets.UTF_8))));
    }

    private static LifecycleRule expireAfter(String prefix, int days) {
        return new LifecycleRule("expire-" + days, true, prefix, days, Optional.empty(), false, 0, 0, 0);
    }

    private static List<ObjectVersion> versions(String bucket) throws Exception {
        return join(catalog.listObjectVersions(new ListVersionsQuery(bucket, "", "", "", "", 1000))).versions();
    }

    private static List<Long> pendingFiles() throws Exception {
        return join(catalog.pendingFileDeletions(10_000)).stream().map(FileDeletion::file).map(FileRef::fileId).toList();
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void expiresCurrentVersionsOfAnUnversionedBucketUnderItsPrefix() throws Exception {
        join(catalog.createBucket("lc-plain", "AK1", false));
        FileRef a = put("lc-plain", "logs/a", 10);
        FileRef b = put("lc-plain", "logs/b", 20);
        put("lc-plain", "keep/c", 40);
        rules("lc-plain", expireAfter("logs/", 3));

        clock.advance(Duration.ofDays(2));
        assertThat(expirer.runNow().objectsExpired()).isZero();
        assertThat(versions("lc-plain")).hasSize(3);

        clock.advance(Duration.ofDays(3));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.objectsExpired()).isEqualTo(2);
        assertThat(run.bytesFreed()).isEqualTo(30);
        assertThat(versions("lc-plain")).extracting(ObjectVersion::key).containsExactly("keep/c");
        // The catalog's own delete: files released for the reaper, usage counters exact.
        assertThat(pendingFiles()).contains(a.fileId(), b.fileId());
        assertThat(join(catalog.usage(Optional.of("lc-plain"))).storedBytes()).isEqualTo(40);
        assertThat(wakes.get()).isPositive();
        assertThat(counter("shardvault.lifecycle.objects.expired")).isEqualTo(2);
        assertThat(counter("shardvault.lifecycle.freed.bytes")).isEqualTo(30);
        assertThat(registry.get("shardvault.lifecycle.last.run.millis").gauge().value()).isEqualTo(clock.millis());
        assertThat(registry.get("shardvault.lifecycle.run").timer().count()).isEqualTo(2);
    }

    @Test
    void dueDaysAreRoundedUpToMidnightUtc() {
        Instant created = Instant.parse("2026-01-15T10:30:00Z");
        assertThat(ExpiryDates.due(created, 3)).isEqualTo(Instant.parse("2026-01-19T00:00:00Z"));
        assertThat(ExpiryDates.due(Instant.parse("2026-01-15T00:00:00Z"), 1)).isEqualTo(Instant.parse("2026-01-16T00:00:00Z"));
        assertThat(ExpiryDates.isDue(created, 3, Instant.parse("2026-01-18T23:59:59Z"))).isFalse();
    }

    @Test
    void expirationByDate() throws Exception {
        join(catalog.createBucket("lc-date", "AK1", false));
        put("lc-date", "k", 5);
        Instant date = clock.instant().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(10));
        rules("lc-date", new LifecycleRule("by-date", true, "", 0, Optional.of(date), false, 0, 0, 0));
        clock.set(date.minusSeconds(1));
        assertThat(expirer.runNow().objectsExpired()).isZero();
        clock.set(date);
        assertThat(expirer.runNow().objectsExpired()).isEqualTo(1);
        assertThat(versions("lc-date")).isEmpty();
    }

    @Test
    void aVersionedBucketGetsADeleteMarkerAndKeepsTheData() throws Exception {
        join(catalog.createBucket("lc-versioned", "AK1", false));
        join(catalog.setVersioning("lc-versioned", VersioningState.ENABLED));
        put("lc-versioned", "k", 7);
        // A delete marker left alone (its data version removed for good) expires under Days too.
        put("lc-versioned", "gone", 3);
        String gone = versions("lc-versioned").get(0).versionId();
        join(catalog.deleteObject("lc-versioned", "gone", Optional.empty()));
        join(catalog.deleteObject("lc-versioned", "gone", Optional.of(gone)));
        rules("lc-versioned", expireAfter("", 1));
        clock.advance(Duration.ofDays(3));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.objectsExpired()).isEqualTo(1);
        assertThat(run.deleteMarkersRemoved()).isEqualTo(1);
        assertThat(run.bytesFreed()).isZero();
        List<ObjectVersion> vs = versions("lc-versioned");
        assertThat(vs).extracting(ObjectVersion::key).containsExactly("k", "k");
        assertThat(vs.get(0).deleteMarker()).isTrue();
        // The marker is the current version now: a second run expires nothing more.
        assertThat(expirer.runNow().objectsExpired()).isZero();
    }

    @Test
    void aSuspendedBucketReplacesTheNullVersionWithANullMarker() throws Exception {
        join(catalog.createBucket("lc-suspended", "AK1", false));
        join(catalog.setVersioning("lc-suspended", VersioningState.SUSPENDED));
        FileRef f = put("lc-suspended", "k", 9);
        rules("lc-suspended", expireAfter("", 1));
        clock.advance(Duration.ofDays(3));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.objectsExpired()).isEqualTo(1);
        assertThat(run.bytesFreed()).isEqualTo(9);
        List<ObjectVersion> vs = versions("lc-suspended");
        assertThat(vs).singleElement().satisfies(v -> {
            assertThat(v.deleteMarker()).isTrue();
            assertThat(v.isNullVersion()).isTrue();
        });
        assertThat(pendingFiles()).contains(f.fileId());
    }

    @Test
    void noncurrentVersionsExpireButTheNewerNoncurrentOnesStay() throws Exception {
        join(catalog.createBucket("lc-noncurrent", "AK1", false));
        join(catalog.setVersioning("lc-noncurrent", VersioningState.ENABLED));
        FileRef v1 = put("lc-noncurrent", "k", 1);
        FileRef v2 = put("lc-noncurrent", "k", 2);
        put("lc-noncurrent", "k", 3);
        put("lc-noncurrent", "k", 4);
        put("lc-noncurrent", "other", 5);
        rules("lc-noncurrent", new LifecycleRule("nc", true, "", 0, Optional.empty(), false, 10, 1, 0));

        clock.advance(Duration.ofDays(5));
        assertThat(expirer.runNow().noncurrentExpired()).isZero();
        clock.advance(Duration.ofDays(7));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.noncurrentExpired()).isEqualTo(2);
        assertThat(run.bytesFreed()).isEqualTo(3);
        assertThat(versions("lc-noncurrent")).extracting(ObjectVersion::key, ObjectVersion::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("k", 4L), org.assertj.core.groups.Tuple.tuple("k", 3L),
                        org.assertj.core.groups.Tuple.tuple("other", 5L));
        assertThat(pendingFiles()).contains(v1.fileId(), v2.fileId());
        assertThat(join(catalog.usage(Optional.of("lc-noncurrent"))).storedBytes()).isEqualTo(12);
    }

    @Test
    void anExpiredDeleteMarkerGoesOnlyWhenItIsTheLastVersion() throws Exception {
        join(catalog.createBucket("lc-markers", "AK1", false));
        join(catalog.setVersioning("lc-markers", VersioningState.ENABLED));
        put("lc-markers", "hidden", 1);
        join(catalog.deleteObject("lc-markers", "hidden", Optional.empty()));
        put("lc-markers", "alone", 1);
        String data = versions("lc-markers").stream().filter(v -> v.key().equals("alone")).findFirst().orElseThrow()
                .versionId();
        join(catalog.deleteObject("lc-markers", "alone", Optional.empty()));
        join(catalog.deleteObject("lc-markers", "alone", Optional.of(data)));
        rules("lc-markers", new LifecycleRule("markers", true, "", 0, Optional.empty(), true, 0, 0, 0));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.deleteMarkersRemoved()).isEqualTo(1);
        assertThat(versions("lc-markers")).extracting(ObjectVersion::key).containsExactly("hidden", "hidden");
        assertThat(counter("shardvault.lifecycle.delete.markers.removed")).isEqualTo(1);
    }

    @Test
    void aVersionUnderRetentionOrLegalHoldIsNeverRemoved() throws Exception {
        join(catalog.createBucket("lc-locked", "AK1", true));
        Instant until = Instant.now().plus(Duration.ofDays(100)).truncatedTo(ChronoUnit.SECONDS);
        FileRef retained = file(11);
        join(catalog.putObjectVersion(new PutObjectVersion("lc-locked", "retained", 11, "r", ObjectMetadata.EMPTY,
                List.of(new FilePart(0, "r", retained)), WriteCondition.NONE,
                Optional.of(new Retention(RetentionMode.COMPLIANCE, until)), false)));
        FileRef held = file(12);
        join(catalog.putObjectVersion(new PutObjectVersion("lc-locked", "held", 12, "h", ObjectMetadata.EMPTY,
                List.of(new FilePart(0, "h", held)), WriteCondition.NONE, Optional.empty(), true)));
        put("lc-locked", "retained", 1);
        put("lc-locked", "held", 1);
        put("lc-locked", "free", 13);
        put("lc-locked", "free", 1);
        rules("lc-locked", new LifecycleRule("nc", true, "", 0, Optional.empty(), false, 1, 0, 0));

        clock.advance(Duration.ofDays(40));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.noncurrentExpired()).isEqualTo(1);
        assertThat(run.skippedLocked()).isEqualTo(2);
        assertThat(versions("lc-locked")).extracting(ObjectVersion::key).containsExactly("free", "held", "held",
                "retained", "retained");
        assertThat(pendingFiles()).doesNotContain(retained.fileId(), held.fileId());
        assertThat(counter("shardvault.lifecycle.skipped.locked")).isEqualTo(2);

        // By the expirer's clock the retention has ended; by the catalog leader's it has not, and the catalog
        // refuses the delete itself: the version stays either way.
        clock.set(until.plus(Duration.ofDays(2)));
        assertThat(expirer.runNow().skippedLocked()).isEqualTo(2);
        assertThat(versions("lc-locked")).extracting(ObjectVersion::key).containsExactly("free", "held", "held",
                "retained", "retained");
    }

    @Test
    void incompleteUploadsAreAbortedAndTheirPartsReleased() throws Exception {
        join(catalog.createBucket("lc-uploads", "AK1", false));
        MultipartUpload stale = join(catalog.createMultipartUpload("lc-uploads", "tmp/big", ObjectMetadata.EMPTY,
                Optional.empty(), false));
        FileRef part = file(100);
        join(catalog.putPart("lc-uploads", "tmp/big", stale.uploadId(), 1, "p1", part));
        MultipartUpload kept = join(catalog.createMultipartUpload("lc-uploads", "keep/big", ObjectMetadata.EMPTY,
                Optional.empty(), false));
        rules("lc-uploads", new LifecycleRule("abort", true, "tmp/", 0, Optional.empty(), false, 0, 0, 7));
        clock.advance(Duration.ofDays(6));
        assertThat(expirer.runNow().uploadsAborted()).isZero();
        clock.advance(Duration.ofDays(3));
        LifecycleExpirer.Run run = expirer.runNow();
        assertThat(run.uploadsAborted()).isEqualTo(1);
        assertThat(run.bytesFreed()).isEqualTo(100);
        assertThat(join(catalog.listMultipartUploads("lc-uploads", "", "", "", 100)).uploads())
                .extracting(MultipartUpload::uploadId).containsExactly(kept.uploadId());
        assertThat(pendingFiles()).contains(part.fileId());
        assertThat(counter("shardvault.lifecycle.uploads.aborted")).isEqualTo(1);
    }

    @Test
    void nothingHappensOffTheLeaderOrUnderADisabledRule() throws Exception {
        join(catalog.createBucket("lc-idle", "AK1", false));
        put("lc-idle", "k", 1);
        rules("lc-idle", new LifecycleRule("off", false, "", 1, Optional.empty(), false, 0, 0, 0));
        clock.advance(Duration.ofDays(30));
        assertThat(expirer.runNow().objectsExpired()).isZero();
        rules("lc-idle", expireAfter("", 1));
        leads.set(false);
        assertThat(expirer.runNow().objectsExpired()).isZero();
        assertThat(versions("lc-idle")).hasSize(1);
        leads.set(true);
        assertThat(expirer.runNow().objectsExpired()).isEqualTo(1);
    }

    @Test
    void aRunCutShortByALostLeadIsFinishedByTheNextRun() throws Exception {
        join(catalog.createBucket("lc-resume", "AK1", false));
        for (String k : List.of("a", "b", "c")) {
            put("lc-resume", k, 1);
        }
        rules("lc-resume", expireAfter("", 1));
        clock.advance(Duration.ofDays(3));
        // This peer stops leading after a few of the run's checks, as a leader deposed mid-run does.
        AtomicInteger checks = new AtomicInteger();
        try (LifecycleExpirer deposed = LifecycleExpirer.start(new LifecycleConfig(true, Duration.ofDays(7), 100_000, 1),
                catalog, () -> checks.incrementAndGet() <= 4, () -> { }, new LifecycleMetrics(new SimpleMeterRegistry()),
                clock, Duration.ofSeconds(10))) {
            long first = deposed.runNow().objectsExpired();
            assertThat(first).isLessThan(3);
            assertThat(versions("lc-resume")).hasSize(3 - (int) first);
            // The next leader's run needs nothing from the cut-off one: the catalog and the clock say what is due.
            assertThat(expirer.runNow().objectsExpired()).isEqualTo(3 - first);
            assertThat(versions("lc-resume")).isEmpty();
        }
    }

    @Test
    void aDeleteNamingAStaleNewestVersionIsRefused() throws Exception {
        join(catalog.createBucket("lc-race", "AK1", false));
        put("lc-race", "k", 1);
        ObjectVersion seen = versions("lc-race").get(0);
        put("lc-race", "k", 2); // a PUT between the expirer's listing and its delete
        DeleteObjectVersion delete = new DeleteObjectVersion("lc-race", "k", Optional.empty(), false);
        List<DeleteOutcome> out = join(catalog.deleteObjectsIfLatest(List.of(
                new DeleteIfLatest(delete, seen.versionId(), seen.lastModified()))));
        assertThat(out.get(0).error()).contains(ErrorCode.PRECONDITION_FAILED);
        assertThat(versions("lc-race")).singleElement().extracting(ObjectVersion::size).isEqualTo(2L);
        ObjectVersion now = versions("lc-race").get(0);
        out = join(catalog.deleteObjectsIfLatest(List.of(new DeleteIfLatest(delete, now.versionId(), now.lastModified()))));
        assertThat(out.get(0).result()).isPresent();
        assertThat(versions("lc-race")).isEmpty();
    }

    @Test
    void theConfigurationIsKeptUntilReplacedRemovedOrTheBucketDeleted() throws Exception {
        join(catalog.createBucket("lc-config", "AK1", false));
        assertThat(join(catalog.bucketLifecycle("lc-config"))).isEmpty();
        rules("lc-config", expireAfter("a/", 2));
        assertThat(join(catalog.bucketLifecycle("lc-config"))).hasValueSatisfying(doc -> assertThat(
                LifecycleConfiguration.parse(doc.getBytes(StandardCharsets.UTF_8)).rules()).containsExactly(
                        expireAfter("a/", 2)));
        join(catalog.setBucketLifecycle("lc-config", Optional.empty()));
        assertThat(join(catalog.bucketLifecycle("lc-config"))).isEmpty();
        rules("lc-config", expireAfter("a/", 2));
        join(catalog.deleteBucket("lc-config"));
        join(catalog.createBucket("lc-config", "AK1", false));
        assertThat(join(catalog.bucketLifecycle("lc-config"))).isEmpty();
    }
}
