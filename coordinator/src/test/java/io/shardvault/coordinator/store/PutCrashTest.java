package io.shardvault.coordinator.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.Caller;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectLock;
import io.shardvault.s3.ObjectMetadata;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.WriteCondition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PutObject through the S3 layer's store while a pod crashes mid-stream (issue #11 made the bucket's
 * ownership read run beside the write instead of before it). Nothing is flushed during the test, so
 * every acknowledged shard on the crashed pod exists only in the stash; after the pod restarts (and
 * restores from the stash), with both stash servers and three other pods stopped, every acknowledged
 * object must read back byte for byte through the store.
 */
@Timeout(300)
class PutCrashTest {
    private static final Logger LOG = LoggerFactory.getLogger(PutCrashTest.class);
    private static final Caller ALICE = new Caller("AKALICE", "alice");
    private static final int CRASHED_POD = 5;
    private static final int WRITERS = 3;
    private static final int UPLOADS = 24;
    private static final long WAIT_SECONDS = 60;

    @Test
    void everyAcknowledgedPutReadsBackAfterAPodCrashMidStream(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m"));
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (CatalogServer catalogServer = CatalogServer.start(CatalogConfig.from(Settings.of(Map.of(
                "catalog.peerId", "c1", "catalog.peers", "c1=127.0.0.1:" + port,
                "catalog.dataDir", dir.resolve("catalog").toString(),
                "catalog.election.timeoutMin", "300ms", "catalog.election.timeoutMax", "600ms"))),
                new SimpleMeterRegistry())) {
            MiniCluster.runWithNewCluster(dir.resolve("vault"), options, cluster -> {
                DataPath data = cluster.newDataPath(options.dataPath(),
                        new CatalogFileIdSource(catalogServer.catalog(), 16));
                CatalogObjectStore store = new CatalogObjectStore(catalogServer.catalog(), data, null, 1024, "us-east-1");
                store.createBucket(ALICE, "backups", "us-east-1", false, CannedAcl.PRIVATE).join();
                long before = System.currentTimeMillis() - 1;
                Map<String, byte[]> acked = new ConcurrentHashMap<>();
                AtomicInteger started = new AtomicInteger();
                List<Future<?>> running = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    Random random = new Random(seed + w);
                    running.add(writers.submit(() -> {
                        int n;
                        while ((n = started.getAndIncrement()) < UPLOADS) {
                            byte[] bytes = new byte[1 + random.nextInt(1 << 20)];
                            random.nextBytes(bytes);
                            String key = "object-" + n;
                            store.putObject(ALICE, new PutObjectRequest("backups", key, ObjectMetadata.EMPTY,
                                    TestBodies.of(bytes), WriteCondition.NONE, ObjectLock.NONE, CannedAcl.PRIVATE))
                                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
                            acked.put(key, bytes);
                        }
                        return null;
                    }));
                }
                awaitAcks(acked, UPLOADS / 3);
                int lost = cluster.crashPodLosingUnflushed(CRASHED_POD, before);
                for (Future<?> f : running) {
                    f.get(WAIT_SECONDS, TimeUnit.SECONDS);
                }
                assertThat(acked).hasSize(UPLOADS);
                assertThat(lost).as("the crash must lose acknowledged shards, or this proves nothing").isPositive();
                cluster.restartPod(CRASHED_POD);

                // No stash, three pods down: every acknowledged object reads back.
                cluster.stopStash(0);
                cluster.stopStash(1);
                for (int i : new int[] {0, 1, 2}) {
                    cluster.stopPod(i);
                }
                for (Map.Entry<String, byte[]> e : acked.entrySet()) {
                    assertThat(get(store, e.getKey(), e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
                }
                // A fourth pod down: the objects written complete now need the shards the crashed pod restored.
                cluster.stopPod(19);
                int needRestored = 0;
                for (Map.Entry<String, byte[]> e : acked.entrySet()) {
                    boolean complete = catalogServer.catalog().getObjectVersion("backups", e.getKey(),
                            Optional.empty()).join().parts().get(0).file().missingShards().isEmpty();
                    if (complete) {
                        needRestored++;
                        assertThat(get(store, e.getKey(), e.getValue().length)).as(e.getKey())
                                .isEqualTo(e.getValue());
                    }
                }
                assertThat(needRestored).as("objects acknowledged with every shard").isPositive();
            });
        } finally {
            writers.shutdownNow();
        }
    }

    private static void awaitAcks(Map<String, byte[]> acked, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (acked.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(acked.size()).as("acknowledged puts").isGreaterThanOrEqualTo(count);
    }

    private static byte[] get(CatalogObjectStore store, String key, long length) {
        try (ObjectContent content = store.getObject(ALICE, "backups", key, null).join().open(0, length)) {
            return TestBodies.readAll(content);
        }
    }
}
