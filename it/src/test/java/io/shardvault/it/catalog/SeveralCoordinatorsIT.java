package io.shardvault.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.admin.CoordinatorAdmin;
import io.shardvault.it.process.ProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Issue #22 item 3 with real processes: three coordinators, each a peer of the one catalog group and an S3
 * endpoint of its own, over the same pods and stash server (a 2+1 vault in one pod process). A client may talk
 * to any of them: what one acknowledged, the others read at once (the catalog's reads are linearizable on
 * every peer, not just the leader's), and what only the leader may do (repair, pod rebuilds, orphan
 * collection) runs on exactly one.
 *
 * <p>The seed of the objects' bytes is logged; the processes' logs are under the test's directory (kept when a
 * test fails), their tails in a failure's message.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeveralCoordinatorsIT {
    private static final Logger LOG = LoggerFactory.getLogger(SeveralCoordinatorsIT.class);
    private static final Duration ELECTION = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    /** One cluster for both tests (its start is most of each one's time); each test has a bucket of its own. */
    private static ProcessCluster cluster;
    private final long seed = System.nanoTime();
    private final SplittableRandom random = new SplittableRandom(seed);

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ProcessCluster.start(dir, threeCoordinators());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Three coordinators over one small vault; leader-only work may start 2 s into a term. */
    static ProcessCluster.Options threeCoordinators() {
        ProcessCluster.Options d = ProcessCluster.Options.defaults();
        return new ProcessCluster.Options(1, 1, 3, "2+1", d.podConf(), List.of("repair.takeoverDelay = 2s"), 3);
    }

    private byte[] bytes(int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    @Test
    @Order(1)
    void whatOneCoordinatorAcknowledgedTheOthersReadAtOnceAndOnlyTheLeaderHeals() throws Exception {
        LOG.info("seed {}", seed);
        String bucket = "shared";
        List<S3Client> s3 = new ArrayList<>();
        try {
            for (int c = 0; c < 3; c++) {
                s3.add(cluster.s3Client(c));
            }
            s3.get(1).createBucket(b -> b.bucket(bucket));
            for (int i = 0; i < 45; i++) {
                int writer = i % 3;
                String key = "k" + i;
                byte[] body = bytes(1 + random.nextInt(64 << 10));
                s3.get(writer).putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(body));
                for (int other = 1; other < 3; other++) {
                    int reader = (writer + other) % 3;
                    assertThat(s3.get(reader).getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray())
                            .as("%s written through c%d, read at once through c%d", key, writer + 1, reader + 1)
                            .isEqualTo(body);
                }
                if (i % 5 == 4) {
                    // A delete acknowledged by one is seen by the next at once too.
                    s3.get(writer).deleteObject(b -> b.bucket(bucket).key(key));
                    int reader = (writer + 1) % 3;
                    assertThatThrownBy(() -> s3.get(reader)
                                    .headObject(b -> b.bucket(bucket).key(key)))
                            .as("%s deleted through c%d, then asked for through c%d", key, writer + 1, reader + 1)
                            .isInstanceOf(NoSuchKeyException.class);
                }
            }
            for (int c = 0; c < 3; c++) {
                int reader = c;
                assertThat(s3.get(reader).listObjectsV2(b -> b.bucket(bucket)).keyCount())
                        .as("the listing through c%d", reader + 1).isEqualTo(36);
            }

            assertOnlyTheLeaderHeals();
        } finally {
            for (S3Client c : s3) {
                c.close();
            }
        }
    }

    /**
     * Losing the leader's coordinator: kill -9 it under writes through all three; a new leader is elected within
     * a few election timeouts, the survivors take reads and writes, every acknowledged write reads back through
     * both; restarted, the killed coordinator catches up and reads every one of them back too.
     */
    @Test
    @Order(2)
    void killingTheLeadersCoordinatorLosesNoAcknowledgedWrite() throws Exception {
        LOG.info("seed {}", seed);
        String bucket = "failover";
        int leader = cluster.catalogLeader(ELECTION);
        List<Integer> survivors = new ArrayList<>(List.of(0, 1, 2));
        survivors.remove(Integer.valueOf(leader));
        Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
        List<S3Client> s3 = new ArrayList<>();
        try {
            for (int c = 0; c < 3; c++) {
                s3.add(cluster.s3Client(c));
            }
            s3.get(leader).createBucket(b -> b.bucket(bucket));
            for (int i = 0; i < 30; i++) {
                put(s3.get(i % 3), bucket, "before-" + i, acknowledged);
            }
            // Writes through every coordinator, the leader's too, while it dies: only the acknowledged ones count.
            AtomicBoolean writing = new AtomicBoolean(true);
            Set<String> unanswered = ConcurrentHashMap.newKeySet();
            Thread writer = new Thread(() -> {
                for (int i = 0; writing.get(); i++) {
                    String key = "during-" + i;
                    try {
                        put(s3.get(i % 3), bucket, key, acknowledged);
                    } catch (RuntimeException e) {
                        unanswered.add(key);
                    }
                }
            }, "writer");
            writer.start();
            try {
                awaitAcknowledged(acknowledged, 45);
                long killedAt = System.nanoTime();
                cluster.killCoordinator(leader);
                int next = cluster.catalogLeader(ELECTION);
                long electedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                LOG.info("c{} killed; c{} leads {} ms later", leader + 1, next + 1, electedMillis);
                assertThat(next).isNotEqualTo(leader);
                // The default election timeout is 1-2 s; allow for a loaded machine, not for a stuck group.
                assertThat(electedMillis).as("time to a new leader").isLessThan(15_000);
                awaitAcknowledged(acknowledged, acknowledged.size() + 30);
            } finally {
                writing.set(false);
                writer.join(TimeUnit.SECONDS.toMillis(90));
            }
            assertThat(writer.isAlive()).as("the writer stopped").isFalse();
            LOG.info("{} objects acknowledged, {} writes failed (the dead coordinator's, and during the election)",
                    acknowledged.size(), unanswered.size());
            for (int c : survivors) {
                assertEveryObjectReads(s3.get(c), bucket, c, acknowledged);
            }
            cluster.startCoordinator(leader);
            assertEveryObjectReads(s3.get(leader), bucket, leader, acknowledged);
            // A write that failed for its client may still have committed (its answer died with c1): only
            // those may be listed beyond the acknowledged ones.
            Set<String> listed = s3.get(leader).listObjectsV2(b -> b.bucket(bucket).maxKeys(1000)).contents().stream()
                    .map(S3Object::key).collect(Collectors.toSet());
            assertThat(listed).as("the listing through the restarted c%d", leader + 1)
                    .containsAll(acknowledged.keySet());
            listed.removeAll(acknowledged.keySet());
            assertThat(unanswered).as("listed, not acknowledged").containsAll(listed);
        } finally {
            for (S3Client c : s3) {
                c.close();
            }
        }
    }

    private void put(S3Client s3, String bucket, String key, Map<String, byte[]> acknowledged) {
        byte[] body;
        synchronized (random) {
            body = bytes(1 + random.nextInt(32 << 10));
        }
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(body));
        acknowledged.put(key, body);
    }

    private void awaitAcknowledged(Map<String, byte[]> acknowledged, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (acknowledged.size() < count) {
            assertThat(System.nanoTime()).as("%d of %d writes acknowledged; %s", acknowledged.size(), count,
                    cluster.describe()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static void assertEveryObjectReads(S3Client s3, String bucket, int c, Map<String, byte[]> acknowledged) {
        for (Map.Entry<String, byte[]> o : acknowledged.entrySet()) {
            assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(o.getKey())).asByteArray())
                    .as("%s through c%d", o.getKey(), c + 1).isEqualTo(o.getValue());
        }
    }

    /**
     * Once the leader's takeover delay has passed, exactly one coordinator, the leader's, repairs (and would run a
     * pod rebuild) and collects orphans, and it stays so over several looks; no other coordinator ever does any.
     */
    private void assertOnlyTheLeaderHeals() throws Exception {
        int leader = cluster.catalogLeader(ELECTION);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int looks = 0;
        while (looks < 5) {
            Map<String, List<Integer>> where = new TreeMap<>();
            for (int c = 0; c < cluster.coordinatorCount(); c++) {
                try (JMXConnector jmx = cluster.connectJmx(c)) {
                    var mbs = jmx.getMBeanServerConnection();
                    for (Map.Entry<String, ObjectName> job : Map.of("RepairingHere", CoordinatorAdmin.repairName(),
                            "RebuildingHere", CoordinatorAdmin.podRebuildName(), "CollectingHere",
                            CoordinatorAdmin.collectName()).entrySet()) {
                        where.computeIfAbsent(job.getKey(), k -> new ArrayList<>());
                        if ((Boolean) mbs.getAttribute(job.getValue(), job.getKey())) {
                            where.get(job.getKey()).add(c);
                        }
                    }
                }
            }
            LOG.info("leader c{}; healing jobs by coordinator index: {}", leader + 1, where);
            for (Map.Entry<String, List<Integer>> job : where.entrySet()) {
                assertThat(job.getValue()).as("%s: only the leader (c%d) may", job.getKey(), leader + 1)
                        .isSubsetOf(List.of(leader));
            }
            // RebuildingHere says a job runs, and none does: pod rebuilds wait on the same LeaderTenure as repairs.
            if (where.get("RepairingHere").equals(List.of(leader)) && where.get("CollectingHere").equals(List.of(leader))) {
                looks++;
            } else {
                assertThat(System.nanoTime()).as("the leader c%d never took up every healing job; %s", leader + 1,
                        cluster.describe()).isLessThan(deadline);
            }
            Thread.sleep(300);
        }
    }
}
