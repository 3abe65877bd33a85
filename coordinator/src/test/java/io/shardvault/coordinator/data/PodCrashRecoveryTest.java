package io.shardvault.coordinator.data;

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

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static io.shardvault.coordinator.data.DataPathTesting.writeUnknownLength;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod killed right after acknowledging buffered writes, restarted with those writes lost, restores
 * them from the stash: every object reads back exact even when that pod's shards are needed. Half the
 * bodies are of unknown length (chunked uploads), whose stash-or-durable choice is made at their end.
 */
@Timeout(300)
class PodCrashRecoveryTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodCrashRecoveryTest.class);
    private static final int CRASHED = 3;

    @Test
    void aPodThatLostItsUnflushedWritesRestoresThemFromTheStash(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        Random random = new Random(seed);
        // Nothing is flushed during the test: every acknowledged shard on the crashed pod is unflushed.
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m"));
        MiniCluster.runWithNewCluster(dir, options, cluster -> {
            long before = System.currentTimeMillis() - 1;
            List<byte[]> data = new ArrayList<>();
            List<StoredFile> files = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                // Every other body is of unknown length (a chunked upload): stashed when it ends within its
                // first stripe, so below 1 MiB.
                boolean unknownLength = i % 2 == 1;
                byte[] d = randomBytes(random, 1 + random.nextInt((1 << 20) - (unknownLength ? 1 : 0)));
                StoredFile f = unknownLength ? writeUnknownLength(cluster.dataPath(), d)
                        : write(cluster.dataPath(), d);
                assertThat(f.stashed()).isTrue();
                assertThat(f.missingShards()).isEmpty();
                data.add(d);
                files.add(f);
            }
            int lost = cluster.crashPodLosingUnflushed(CRASHED, before);
            assertThat(lost).as("the crash must lose acknowledged shards, or this proves nothing").isEqualTo(25);
            cluster.restartPod(CRASHED);

            // Take the stash away and four other pods down: every read now needs the restarted pod's shards.
            cluster.stopStash(0);
            cluster.stopStash(1);
            for (int i : new int[] {0, 1, 2, 19}) {
                cluster.stopPod(i);
            }
            for (int f = 0; f < files.size(); f++) {
                assertThat(read(cluster.dataPath(), files.get(f))).as("file %d", f).isEqualTo(data.get(f));
            }
        });
    }
}
