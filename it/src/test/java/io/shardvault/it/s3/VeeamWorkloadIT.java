package io.shardvault.it.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.s3.sosapi.SosapiObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A Veeam-like backup client against a real cluster ({@link S3Cluster}), the six steps of issue #9:
 * <ol>
 *   <li>the SOSAPI probe (system.xml, capacity.xml), then the Object Lock and versioning checks;</li>
 *   <li>{@value #OBJECTS} objects of 512 KiB and 1 MiB written by {@value #THREADS} threads, each with
 *       a COMPLIANCE retention: one in four expires a few seconds after its write, the others in an hour;</li>
 *   <li>a PutObjectRetention pass extending every long retention by a day;</li>
 *   <li>ListObjectVersions over the prefix, in pages;</li>
 *   <li>DeleteObjects in batches of 1,000 of every version listed: every locked version is refused
 *       (AccessDenied), every expired one deleted;</li>
 *   <li>every survivor read back bit-exact, every deleted one gone.</li>
 * </ol>
 * Object contents are regenerated from the seed and the object's index, never held in memory.
 */
@Timeout(600)
class VeeamWorkloadIT {
    private static final Logger LOG = LoggerFactory.getLogger(VeeamWorkloadIT.class);
    private static final long SEED = System.nanoTime();
    private static final int OBJECTS = 2000;
    private static final int THREADS = 8;
    private static final String BUCKET = "veeam-immutable";
    private static final String PREFIX = "Veeam/Archive/backup-1/blocks/";
    private static final Duration SHORT_RETENTION = Duration.ofSeconds(5);

    @TempDir
    static Path dir;
    private static S3Cluster cluster;
    private static S3Client s3;

    @BeforeAll
    static void start() throws Exception {
        LOG.info("seed {}", SEED);
        cluster = S3Cluster.start(dir, java.util.Map.of());
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

    private static String key(int i) {
        return PREFIX + String.format("%02x/%06d.blk", i % 256, i);
    }

    private static int size(int i) {
        return i % 2 == 0 ? 512 << 10 : 1 << 20;
    }

    /** One in four objects gets a retention that expires during the test. */
    private static boolean expiring(int i) {
        return i % 4 == 1;
    }

    private static byte[] content(int i) {
        byte[] b = new byte[size(i)];
        SplittableRandom r = new SplittableRandom(SEED * 31 + i);
        for (int p = 0; p < b.length; p += 8) {
            long v = r.nextLong();
            for (int j = 0; j < 8 && p + j < b.length; j++) {
                b[p + j] = (byte) (v >>> (8 * j));
            }
        }
        return b;
    }

    private static void parallel(String step, int count, IntConsumer task) throws Exception {
        long began = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int first = t;
                futures.add(pool.submit(() -> {
                    for (int i = first; i < count; i += THREADS) {
                        task.accept(i);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        LOG.info("{}: {} items in {} ms", step, count, Duration.ofNanos(System.nanoTime() - began).toMillis());
    }

    private static long element(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">(\\d+)</" + name + ">").matcher(xml);
        assertThat(m.find()).as(name + " in " + xml).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void veeamLikeWorkload() throws Exception {
        // 1. The SOSAPI probe, then the lock and versioning checks.
        s3.createBucket(b -> b.bucket(BUCKET).objectLockEnabledForBucket(true));
        String system = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.SYSTEM_XML)).asUtf8String();
        assertThat(system).contains("<CapacityInfo>true</CapacityInfo>").contains("<UploadSessions>false")
                .contains("<IAMSTS>false</IAMSTS>");
        assertThat(element(system, "KbBlockSize")).isEqualTo(1024);
        String capacityBefore = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.CAPACITY_XML))
                .asUtf8String();
        long capacity = element(capacityBefore, "Capacity");
        long available = element(capacityBefore, "Available");
        long usedBefore = element(capacityBefore, "Used");
        LOG.info("capacity.xml before: capacity {} available {} used {}", capacity, available, usedBefore);
        assertThat(available).isPositive();
        assertThat(capacity).isEqualTo(available + usedBefore);
        assertThat(s3.headObject(b -> b.bucket(BUCKET).key(SosapiObjects.CAPACITY_XML)).contentType())
                .isEqualTo("application/xml");
        assertThat(s3.getObjectLockConfiguration(b -> b.bucket(BUCKET)).objectLockConfiguration().objectLockEnabled())
                .isEqualTo(ObjectLockEnabled.ENABLED);
        assertThat(s3.getBucketVersioning(b -> b.bucket(BUCKET)).status()).isEqualTo(BucketVersioningStatus.ENABLED);

        // 2. The objects, each with a COMPLIANCE retention.
        Instant longUntil = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        Map<Integer, String> versions = new ConcurrentHashMap<>();
        Map<Integer, Instant> shortUntil = new ConcurrentHashMap<>();
        parallel("PutObject with COMPLIANCE retention", OBJECTS, i -> {
            Instant until = expiring(i) ? Instant.now().plus(SHORT_RETENTION).truncatedTo(ChronoUnit.SECONDS)
                    .plusSeconds(1) : longUntil;
            if (expiring(i)) {
                shortUntil.put(i, until);
            }
            String v = s3.putObject(b -> b.bucket(BUCKET).key(key(i)).objectLockMode(ObjectLockMode.COMPLIANCE)
                    .objectLockRetainUntilDate(until), RequestBody.fromBytes(content(i))).versionId();
            assertThat(v).isNotBlank();
            versions.put(i, v);
        });
        assertThat(versions).hasSize(OBJECTS);
        long written = 0;
        for (int i = 0; i < OBJECTS; i++) {
            written += size(i);
        }
        String capacityAfter = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.CAPACITY_XML))
                .asUtf8String();
        assertThat(element(capacityAfter, "Used")).isGreaterThanOrEqualTo(usedBefore + written);

        // 3. The retention extension pass over every long retention.
        Instant extended = longUntil.plus(1, ChronoUnit.DAYS);
        parallel("PutObjectRetention extension", OBJECTS, i -> {
            if (!expiring(i)) {
                s3.putObjectRetention(b -> b.bucket(BUCKET).key(key(i)).versionId(versions.get(i)).retention(r -> r
                        .mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(extended)));
            }
        });
        for (int i = 0; i < 8; i++) {
            int n = i;
            assertThat(s3.getObjectRetention(b -> b.bucket(BUCKET).key(key(n)).versionId(versions.get(n)))
                    .retention().retainUntilDate()).isEqualTo(expiring(n) ? shortUntil.get(n) : extended);
        }

        // 4. ListObjectVersions over the prefix, in pages of 1,000.
        long began = System.nanoTime();
        Map<String, String> listed = new HashMap<>();
        String keyMarker = null;
        String versionMarker = null;
        int pages = 0;
        ListObjectVersionsResponse page;
        do {
            String km = keyMarker;
            String vm = versionMarker;
            page = s3.listObjectVersions(b -> b.bucket(BUCKET).prefix(PREFIX).keyMarker(km).versionIdMarker(vm));
            for (ObjectVersion v : page.versions()) {
                assertThat(listed.put(v.key(), v.versionId())).as("listed twice: " + v.key()).isNull();
                assertThat(v.isLatest()).isTrue();
            }
            assertThat(page.deleteMarkers()).isEmpty();
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
            assertThat(++pages).isLessThanOrEqualTo(OBJECTS / 1000 + 1);
        } while (page.isTruncated());
        LOG.info("ListObjectVersions: {} versions in {} pages in {} ms", listed.size(), pages,
                Duration.ofNanos(System.nanoTime() - began).toMillis());
        assertThat(listed).hasSize(OBJECTS);
        for (int i = 0; i < OBJECTS; i++) {
            assertThat(listed.get(key(i))).isEqualTo(versions.get(i));
        }

        // 5. DeleteObjects over every listed version, once the short retentions have expired.
        Instant lastShort = shortUntil.values().stream().max(Instant::compareTo).orElseThrow();
        while (Instant.now().isBefore(lastShort.plusMillis(500))) {
            Thread.sleep(200);
        }
        List<ObjectIdentifier> targets = new ArrayList<>();
        listed.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> targets.add(
                ObjectIdentifier.builder().key(e.getKey()).versionId(e.getValue()).build()));
        Set<String> deleted = new HashSet<>();
        Set<String> refused = new HashSet<>();
        began = System.nanoTime();
        for (int from = 0; from < targets.size(); from += 1000) {
            List<ObjectIdentifier> batch = targets.subList(from, Math.min(targets.size(), from + 1000));
            DeleteObjectsResponse r = s3.deleteObjects(b -> b.bucket(BUCKET)
                    .delete(Delete.builder().objects(batch).quiet(false).build()));
            r.deleted().forEach(d -> deleted.add(d.key()));
            r.errors().forEach(e -> {
                assertThat(e.code()).as(e.key()).isEqualTo("AccessDenied");
                refused.add(e.key());
            });
            assertThat(r.deleted().size() + r.errors().size()).isEqualTo(batch.size());
        }
        LOG.info("DeleteObjects: {} deleted, {} refused in {} ms", deleted.size(), refused.size(),
                Duration.ofNanos(System.nanoTime() - began).toMillis());
        Set<String> expectDeleted = new HashSet<>();
        Set<String> expectRefused = new HashSet<>();
        for (int i = 0; i < OBJECTS; i++) {
            (expiring(i) ? expectDeleted : expectRefused).add(key(i));
        }
        assertThat(deleted).isEqualTo(expectDeleted);
        assertThat(refused).isEqualTo(expectRefused);

        // 6. Every survivor reads back bit-exact; every deleted version is gone.
        parallel("GetObject survivors", OBJECTS, i -> {
            if (expiring(i)) {
                try {
                    s3.headObject(b -> b.bucket(BUCKET).key(key(i)).versionId(versions.get(i)));
                    throw new AssertionError("deleted version still there: " + key(i));
                } catch (S3Exception e) {
                    assertThat(e.statusCode()).isEqualTo(404);
                }
            } else {
                byte[] got = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key(i)).versionId(versions.get(i)))
                        .asByteArray();
                if (!java.util.Arrays.equals(got, content(i))) {
                    throw new AssertionError("content differs: " + key(i));
                }
            }
        });
        assertThat(s3.listObjectVersions(b -> b.bucket(BUCKET).prefix(PREFIX).maxKeys(1000)).versions())
                .hasSize(1000);
    }
}
