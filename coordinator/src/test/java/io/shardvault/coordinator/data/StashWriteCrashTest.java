package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.coordinator.testing.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.shardvault.coordinator.data.DataPathTesting.WAIT;
import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The small-file write path under crashes in the middle of a stream of uploads (issue #11 changed its
 * order of sends and how it pulls the body): four writers upload bodies that arrive in random pieces,
 * some already buffered and some late; meanwhile a pod is killed losing its unflushed shards, and a
 * stash server stops while chunks are on their way to it. Every acknowledged byte must read back, also
 * when reading needs exactly the shards the crashed pod restored from the stash.
 */
@Timeout(300)
class StashWriteCrashTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashWriteCrashTest.class);
    private static final int CRASHED_POD = 3;
    private static final int WRITERS = 4;
    private static final int UPLOADS = 32;

    private record Acked(StoredFile file, byte[] data) {
    }

    @Test
    void everyAcknowledgedUploadSurvivesAPodCrashAndAStashStopMidStream(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        // Nothing is flushed during the test: every acknowledged shard on the crashed pod is unflushed.
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m"));
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        ScheduledExecutorService late = Executors.newSingleThreadScheduledExecutor();
        try {
            MiniCluster.runWithNewCluster(dir, options, cluster -> {
                long before = System.currentTimeMillis() - 1;
                ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
                AtomicInteger started = new AtomicInteger();
                List<Future<?>> running = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    Random random = new Random(seed + w);
                    running.add(writers.submit(() -> {
                        while (started.getAndIncrement() < UPLOADS) {
                            byte[] data = randomBytes(random, 1 + random.nextInt(1 << 20));
                            StoredFile file = cluster.dataPath().write(new PiecedSource(data, random.nextLong(), late))
                                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                            acked.add(new Acked(file, data));
                        }
                        return null;
                    }));
                }
                awaitAcks(acked, UPLOADS / 4);
                int lost = cluster.crashPodLosingUnflushed(CRASHED_POD, before);
                awaitAcks(acked, UPLOADS / 2);
                cluster.stopStash(1);
                awaitAcks(acked, 3 * UPLOADS / 4);
                cluster.restartStash(1);
                for (Future<?> f : running) {
                    f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                }
                assertThat(acked).hasSize(UPLOADS);
                assertThat(lost).as("the crash must lose acknowledged shards, or this proves nothing").isPositive();
                cluster.restartPod(CRASHED_POD);

                // No stash, three pods down: every acknowledged upload reads back.
                cluster.stopStash(0);
                cluster.stopStash(1);
                for (int i : new int[] {0, 1, 2}) {
                    cluster.stopPod(i);
                }
                for (Acked a : acked) {
                    assertThat(read(cluster.dataPath(), a.file())).as("file %d", a.file().fileId())
                            .isEqualTo(a.data());
                }
                // A fourth pod down: the complete stashed uploads now need the shards the crashed pod restored.
                cluster.stopPod(19);
                int needRestored = 0;
                for (Acked a : acked) {
                    if (a.file().stashed() && a.file().missingShards().isEmpty()) {
                        needRestored++;
                        assertThat(read(cluster.dataPath(), a.file())).as("file %d", a.file().fileId())
                                .isEqualTo(a.data());
                    }
                }
                assertThat(needRestored).as("uploads acknowledged before the crash").isPositive();
            });
        } finally {
            writers.shutdownNow();
            late.shutdownNow();
        }
    }

    private static void awaitAcks(ConcurrentLinkedQueue<Acked> acked, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (acked.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(acked.size()).as("acknowledged uploads").isGreaterThanOrEqualTo(count);
    }

    /**
     * A body delivered in random pieces of 1 byte to 96 KiB: half of the reads are already complete, as
     * when the S3 layer has bytes buffered, and half complete a moment later on another thread.
     */
    private static final class PiecedSource implements ByteSource {
        private final byte[] data;
        private final Random random;
        private final ScheduledExecutorService late;
        private int position;

        PiecedSource(byte[] data, long seed, ScheduledExecutorService late) {
            this.data = data;
            this.random = new Random(seed);
            this.late = late;
        }

        @Override
        public long length() {
            return data.length;
        }

        @Override
        public synchronized CompletableFuture<ByteBuf> read() {
            if (position == data.length) {
                return CompletableFuture.completedFuture(null);
            }
            int piece = Math.min(data.length - position, 1 + random.nextInt(96 * 1024));
            ByteBuf buf = Unpooled.copiedBuffer(data, position, piece);
            position += piece;
            if (random.nextBoolean()) {
                return CompletableFuture.completedFuture(buf);
            }
            CompletableFuture<ByteBuf> later = new CompletableFuture<>();
            late.schedule(() -> later.complete(buf), random.nextInt(500), TimeUnit.MICROSECONDS);
            return later;
        }
    }
}
