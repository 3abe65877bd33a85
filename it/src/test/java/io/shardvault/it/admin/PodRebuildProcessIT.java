package io.shardvault.it.admin;

import static io.shardvault.common.erasure.TestData.sha256;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.jmx.MBeanRegistrations;
import io.shardvault.coordinator.admin.CoordinatorAdmin;
import io.shardvault.it.process.ProcessCluster;
import io.shardvault.it.process.ProcessCluster.AdminRun;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Issue #20, section 3's proof with real processes ({@link ProcessCluster}: 2 stash servers, 5 pod processes
 * of 4 pods of one 16+4 vault, a coordinator): objects of mixed sizes (small ones through the stash, large
 * ones, a multipart upload) are loaded and flushed (the stash empty); the process hosting pod 9 is stopped,
 * pod 9's tome deleted, the process started again with pod 9 empty, and {@code shardvault admin pod rebuild
 * 9} (the CLI in a process of its own) run to DONE; then another pod process (4 pods) and both stash servers
 * are stopped, and every object reads back bit-exact: 16 shards are left, pod 9's among them, so only the
 * rebuilt shards make that possible. The second test SIGKILLs the coordinator halfway through a throttled
 * rebuild; the restarted one resumes from the job's checkpoint, not from the start.
 *
 * <p>The seed of the objects' bytes is logged; the processes' logs are under the test's directory, their
 * tails in a failure's message.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PodRebuildProcessIT {
    private static final Logger LOG = LoggerFactory.getLogger(PodRebuildProcessIT.class);
    private static final String BUCKET = "rebuilt";
    private static final int WIPED = 9;
    private static final ObjectName STASH = MBeanRegistrations.name("Stash", "stash");
    private static final Pattern RESUMED = Pattern.compile("runs from file (-?\\d+) \\((\\d+) files done\\)");

    /** Kept when a test fails: the processes' logs are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ProcessCluster cluster;
    private final long seed = System.nanoTime();
    private final SplittableRandom random = new SplittableRandom(seed);

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aWipedPodRebuiltThroughTheCliCarriesEveryObjectWithAnotherPodProcessAndTheStashDown() throws Exception {
        LOG.info("seed {}", seed);
        cluster = ProcessCluster.start(dir, ProcessCluster.Options.defaults()
                .withCoordinatorConf("repair.rebuild.interval = 200ms", "repair.interval = 200ms",
                        "repair.rebuild.gatherDelay = 0s"));
        try (S3Client s3 = cluster.s3Client()) {
            s3.createBucket(b -> b.bucket(BUCKET));
            Map<String, byte[]> objects = new LinkedHashMap<>();
            for (int i = 0; i < 6; i++) {
                objects.put("small-" + i, body(20_000 + 70_000 * i));
            }
            objects.put("large-0", body(3 * 1024 * 1024 + 333));
            objects.put("large-1", body(2 * 1024 * 1024 - 7));
            put(s3, objects);
            objects.put("multipart", putMultipart(s3, "multipart", 5 * 1024 * 1024, 1024 * 1024 + 99));
            int files = objects.size() + 1;

            long stashed;
            try (JMXConnector jmx = cluster.connectJmx()) {
                stashed = awaitStashDrained(jmx.getMBeanServerConnection(), 10).getOrDefault(WIPED, 0L);
            }
            wipe(WIPED);

            AdminRun start = cluster.admin("pod", "rebuild", String.valueOf(WIPED));
            assertThat(start.exit()).as(start.output()).isZero();
            assertThat(start.output()).contains("rebuild of pod " + WIPED + " in vault " + ProcessCluster.VAULT_ID
                    + " started");
            CompositeData done;
            try (JMXConnector jmx = cluster.connectJmx()) {
                done = awaitJob(jmx.getMBeanServerConnection(), j -> "DONE".equals(j.get("state")));
            }
            assertThat((Long) done.get("failures")).isZero();
            assertThat((Long) done.get("filesDone")).isEqualTo(files);
            // Every file's shard was gone from the pod, but any it recovered from a stash copy still held.
            assertThat((Long) done.get("shardsRebuilt")).isBetween(files - stashed, (long) files);
            AdminRun status = cluster.admin("pod", "rebuild-status");
            assertThat(status.exit()).as(status.output()).isZero();
            LOG.info("operator sees:\n{}", status.output());
            assertThat(status.output()).contains("state:            DONE",
                    "shards rebuilt:   " + done.get("shardsRebuilt"));

            readBackWithOthersDown(s3, objects);
        }
    }

    @Test
    void aCoordinatorKilledHalfwayThroughARebuildResumesFromItsCheckpoint() throws Exception {
        LOG.info("seed {}", seed);
        // 64 KiB/s (the least the setting takes) over ~700 KiB of pod 9's shards: about ten seconds of rebuild.
        cluster = ProcessCluster.start(dir, ProcessCluster.Options.defaults().withCoordinatorConf(
                "repair.rebuild.interval = 200ms", "repair.interval = 200ms", "repair.rebuild.bytesPerSecond = 64KiB",
                "repair.rebuild.gatherDelay = 0s",
                "repair.rebuild.checkpoint.files = 2", "repair.rebuild.concurrency = 2"));
        try (S3Client s3 = cluster.s3Client()) {
            s3.createBucket(b -> b.bucket(BUCKET));
            Map<String, byte[]> objects = new LinkedHashMap<>();
            for (int i = 0; i < 30; i++) {
                objects.put("small-" + i, body(200_000 + 1_000 * i));
            }
            objects.put("large", body(3 * 1024 * 1024 + 5));
            put(s3, objects);
            objects.put("multipart", putMultipart(s3, "multipart", 5 * 1024 * 1024, 777));
            int files = objects.size() + 1;
            try (JMXConnector jmx = cluster.connectJmx()) {
                awaitStashDrained(jmx.getMBeanServerConnection(), 10);
            }
            wipe(WIPED);

            AdminRun start = cluster.admin("pod", "rebuild", String.valueOf(WIPED));
            assertThat(start.exit()).as(start.output()).isZero();
            CompositeData partly;
            try (JMXConnector jmx = cluster.connectJmx()) {
                partly = awaitJob(jmx.getMBeanServerConnection(), j -> (Long) j.get("filesDone") >= files / 3);
            }
            assertThat(partly.get("state")).as("killed halfway, not after the end").isEqualTo("RUNNING");
            cluster.killCoordinator();
            LOG.info("coordinator killed with the job at {} of {} files", partly.get("filesDone"), files);

            cluster.startCoordinator();
            CompositeData done;
            try (JMXConnector jmx = cluster.connectJmx()) {
                done = awaitJob(jmx.getMBeanServerConnection(), j -> "DONE".equals(j.get("state")));
            }
            Matcher resumed = RESUMED.matcher(cluster.coordinator().output());
            assertThat(resumed.find()).as("the restarted coordinator ran the job; %s", cluster.coordinator().tail())
                    .isTrue();
            long checkpointed = Long.parseLong(resumed.group(2));
            LOG.info("resumed from file {} with {} files done", resumed.group(1), checkpointed);
            assertThat(Long.parseLong(resumed.group(1))).as("a checkpointed position").isGreaterThanOrEqualTo(0);
            assertThat(checkpointed).as("the files done at the checkpoint").isPositive().isLessThan(files);
            assertThat((Long) done.get("jobId")).isEqualTo(partly.get("jobId"));
            assertThat((Long) done.get("failures")).isZero();
            assertThat((Long) done.get("filesDone")).as("counted from the checkpoint on, each file once")
                    .isEqualTo(files);
            // The restarted coordinator walked only the files after the checkpoint.
            assertThat(counter(cluster.coordinatorMetrics(), "shardvault_rebuild_files_total"))
                    .isEqualTo(files - checkpointed);

            readBackWithOthersDown(s3, objects);
        }
    }

    /** Stops pod {@code pod}'s process, deletes its tome, starts the process again (pod {@code pod} empty). */
    private void wipe(int pod) throws Exception {
        int process = cluster.podProcessOf(pod);
        cluster.stopPodProcess(process);
        assertThat(cluster.wipeTomes(pod)).as("shard files on pod " + pod).isPositive();
        cluster.startPodProcess(process);
    }

    /**
     * Once the stash is empty (a shard that missed its pod's write is repaired, and its stash copy purged,
     * within the repair's interval), stops a pod process other than the rebuilt pod's (4 pods: m of the vault)
     * and both stash servers, and reads every object back. Before the stash is empty, a file whose shard on
     * one of the 16 pods left exists only in the stash could not be read: five of its 20 shards gone.
     */
    private void readBackWithOthersDown(S3Client s3, Map<String, byte[]> objects) throws Exception {
        try (JMXConnector jmx = cluster.connectJmx()) {
            assertThat(awaitStashDrained(jmx.getMBeanServerConnection(), 60))
                    .as("stash entries left after 60 s (by shard index), with repair every 200 ms").isEmpty();
        }
        int other = (cluster.podProcessOf(WIPED) + 1) % 5;
        assertThat(cluster.podsOf(other)).doesNotContain(WIPED).hasSize(4);
        cluster.stopPodProcess(other);
        cluster.stopStash(0);
        cluster.stopStash(1);
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            byte[] read = s3.getObjectAsBytes(g -> g.bucket(BUCKET).key(o.getKey())).asByteArray();
            assertThat(sha256(read)).as(o.getKey() + " read back with pods " + cluster.podsOf(other) + " down")
                    .isEqualTo(sha256(o.getValue()));
        }
    }

    private static void put(S3Client s3, Map<String, byte[]> objects) {
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            s3.putObject(p -> p.bucket(BUCKET).key(o.getKey()), RequestBody.fromBytes(o.getValue()));
        }
    }

    /** Uploads two parts (two files) as one object; returns its bytes. */
    private byte[] putMultipart(S3Client s3, String key, int size1, int size2) {
        byte[] part1 = body(size1);
        byte[] part2 = body(size2);
        String upload = s3.createMultipartUpload(c -> c.bucket(BUCKET).key(key)).uploadId();
        String e1 = s3.uploadPart(u -> u.bucket(BUCKET).key(key).uploadId(upload).partNumber(1),
                RequestBody.fromBytes(part1)).eTag();
        String e2 = s3.uploadPart(u -> u.bucket(BUCKET).key(key).uploadId(upload).partNumber(2),
                RequestBody.fromBytes(part2)).eTag();
        s3.completeMultipartUpload(c -> c.bucket(BUCKET).key(key).uploadId(upload)
                .multipartUpload(CompletedMultipartUpload.builder().parts(
                        CompletedPart.builder().partNumber(1).eTag(e1).build(),
                        CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
        byte[] whole = new byte[size1 + size2];
        System.arraycopy(part1, 0, whole, 0, size1);
        System.arraycopy(part2, 0, whole, size1, size2);
        return whole;
    }

    /**
     * Waits (up to {@code seconds}) until the stash holds nothing: every shard flushed on its pod and purged
     * from the stash. A shard that missed its pod's write (the write succeeds with n-1 pods) stays in the stash
     * until repaired: what is left then, by shard index, is logged and returned.
     */
    private Map<Integer, Long> awaitStashDrained(MBeanServerConnection mbeans, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Map<Integer, Long> left = new TreeMap<>();
        do {
            left.clear();
            for (CompositeData slot : (CompositeData[]) mbeans.getAttribute(STASH, "Slots")) {
                long entries = (Long) slot.get("entries");
                if (entries > 0) {
                    left.merge((Integer) slot.get("shardIndex"), entries, Long::sum);
                }
            }
            if (left.isEmpty()) {
                return left;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        LOG.warn("stash entries left after {} s, by shard index: {}", seconds, left);
        return left;
    }

    /** Polls the pod rebuild jobs until pod {@link #WIPED}'s job matches; that job then. */
    private CompositeData awaitJob(MBeanServerConnection mbeans, Predicate<CompositeData> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Optional<CompositeData> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            for (CompositeData job : (CompositeData[]) mbeans.getAttribute(CoordinatorAdmin.podRebuildName(), "Jobs")) {
                if ((Integer) job.get("shardIndex") == WIPED && "rebuild".equals(job.get("mode"))) {
                    last = Optional.of(job);
                    if (until.test(job)) {
                        return job;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("pod " + WIPED + "'s rebuild job did not get there in 120 s: " + last + "; "
                + cluster.describe());
    }

    /** The sum of a Prometheus counter's samples in a scrape. */
    private static double counter(String scrape, String name) {
        double sum = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private byte[] body(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }
}
