package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.coordinator.testing.SinglePeerCatalog;
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
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PutObject through the S3 layer's store while a pod crashes mid-stream (issue #11 made the bucket's
 * ownership read run beside the write instead of before it). Small files: nothing is flushed during
 * the test, so every acknowledged shard on the crashed pod exists only in the stash; after the pod
 * restarts (and restores from the stash), with both stash servers and three other pods stopped, every
 * acknowledged object must read back byte for byte through the store. Large files (issue #18): written
 * durably with the large-file chunk, the same with a pod halted mid-write.
 */
@Timeout(300)
class PutCrashTest {
    private static final Logger LOG = LoggerFactory.getLogger(PutCrashTest.class);
    private static final Caller ALICE = new Caller("AKALICE", "alice");
    private static final int CRASHED_POD = 5;
    private static final int WRITERS = 3;
    private static final long WAIT_SECONDS = 60;

    @Test
    void everyAcknowledgedPutReadsBackAfterAPodCrashMidStream(@TempDir Path dir) throws Exception {
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m"));
        withStore(dir, options, (cluster, catalog, store) -> {
            long before = System.currentTimeMillis() - 1;
            // Small files: stash mode, buffered on the pods.
            Map<String, byte[]> acked = putStream(store, random -> 1 + random.nextInt(1 << 20), 24, () -> {
                int lost = cluster.crashPodLosingUnflushed(CRASHED_POD, before);
                assertThat(lost).as("the crash must lose acknowledged shards, or this proves nothing").isPositive();
            });
            assertThat(acked).hasSize(24);
            cluster.restartPod(CRASHED_POD);
            // No stash: every acknowledged object's copy must be on the pods.
            cluster.stopStash(0);
            cluster.stopStash(1);
            assertEveryAckedReadsBackNeedingTheCrashedPod(cluster, catalog, store, acked);
        });
    }

    /**
     * Large files (issue #18): cut with 256 KiB chunks into 4 MiB stripes and written durably. A pod
     * halts in the middle of the stream, mid-write or mid-fsync; every PUT it had acknowledged a chunk
     * of must find that chunk on it after its restart, with three other pods down and then a fourth.
     */
    @Test
    void everyAcknowledgedLargePutReadsBackAfterAPodCrashMidStream(@TempDir Path dir) throws Exception {
        MiniCluster.Options options = MiniCluster.Options.defaults();
        withStore(dir, options, (cluster, catalog, store) -> {
            int mib = 1 << 20;
            Map<String, byte[]> acked = putStream(store, random -> mib + 1 + random.nextInt(8 * mib), 12,
                    () -> cluster.crashPod(CRASHED_POD));
            assertThat(acked).hasSize(12);
            for (String key : acked.keySet()) {
                assertThat(catalog.getObjectVersion("backups", key, Optional.empty()).join().parts().get(0).file()
                        .layout().chunkBytes()).as(key).isEqualTo(256 * 1024);
            }
            cluster.restartPod(CRASHED_POD);
            assertEveryAckedReadsBackNeedingTheCrashedPod(cluster, catalog, store, acked);
        });
    }

    /** A test body over a store on a real catalog and vault. */
    @FunctionalInterface
    private interface StoreTest {
        void run(MiniCluster cluster, Catalog catalog, CatalogObjectStore store) throws Exception;
    }

    /** A single-peer catalog, a vault from {@code options}, a store over both with bucket "backups". */
    private static void withStore(Path dir, MiniCluster.Options options, StoreTest test) throws Exception {
        try (CatalogServer catalogServer = SinglePeerCatalog.start(dir.resolve("catalog"))) {
            MiniCluster.runWithNewCluster(dir.resolve("vault"), options, cluster -> {
                DataPath data = cluster.newDataPath(options.dataPath(),
                        new CatalogFileIdSource(catalogServer.catalog(), 16));
                CatalogObjectStore store = new CatalogObjectStore(catalogServer.catalog(), data, null, 1024,
                        "us-east-1");
                store.createBucket(ALICE, "backups", "us-east-1", false, CannedAcl.PRIVATE).join();
                test.run(cluster, catalogServer.catalog(), store);
            });
        }
    }

    /** What happens once a third of the stream was acknowledged. */
    @FunctionalInterface
    private interface Crash {
        void run() throws Exception;
    }

    /**
     * Puts {@code uploads} objects of random sizes from {@link #WRITERS} threads, runs {@code crash}
     * once a third of them were acknowledged, and returns every acknowledged object (all of them: a
     * failed put fails the test).
     */
    private static Map<String, byte[]> putStream(CatalogObjectStore store, ToIntFunction<Random> size, int uploads,
                                                 Crash crash) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            Map<String, byte[]> acked = new ConcurrentHashMap<>();
            AtomicInteger started = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Random random = new Random(seed + w);
                running.add(writers.submit(() -> {
                    int n;
                    while ((n = started.getAndIncrement()) < uploads) {
                        byte[] bytes = new byte[size.applyAsInt(random)];
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
            awaitAcks(acked, uploads / 3);
            crash.run();
            for (Future<?> f : running) {
                f.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
            return acked;
        } finally {
            writers.shutdownNow();
        }
    }

    /**
     * With three pods down every acknowledged object reads back; with a fourth, the objects written
     * with every shard need the crashed pod's, and must read back too (at least one such object).
     */
    private static void assertEveryAckedReadsBackNeedingTheCrashedPod(MiniCluster cluster, Catalog catalog,
                                                                      CatalogObjectStore store,
                                                                      Map<String, byte[]> acked) {
        for (int i : new int[] {0, 1, 2}) {
            cluster.stopPod(i);
        }
        for (Map.Entry<String, byte[]> e : acked.entrySet()) {
            assertThat(get(store, e.getKey(), e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
        }
        cluster.stopPod(19);
        int needRestored = 0;
        for (Map.Entry<String, byte[]> e : acked.entrySet()) {
            boolean complete = catalog.getObjectVersion("backups", e.getKey(), Optional.empty()).join().parts().get(0)
                    .file().missingShards().isEmpty();
            if (complete) {
                needRestored++;
                assertThat(get(store, e.getKey(), e.getValue().length)).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
        assertThat(needRestored).as("objects acknowledged with every shard").isPositive();
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
