package io.shardvault.coordinator.data;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodStats;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static io.shardvault.coordinator.data.DataPathTesting.writeUnknownLength;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod killed right after acknowledging buffered writes, restarted with those writes lost, restores
 * them from the stash (knowing its slot and stash servers only from the assignment it persisted): every object reads back exact even when that pod's shards are needed. Half the
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

    @Test
    void aPodWithoutAnAssignmentIsWrittenDurablyAndTheWriteStillSucceeds(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        Random random = new Random(seed);
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m"));
        MiniCluster.runWithNewCluster(dir, options, cluster -> {
            // The coordinator still counts the pod as assigned: the pod's refusal is the safety net.
            cluster.stopPod(CRASHED);
            cluster.restartPodUnassigned(CRASHED);
            MeterRegistry meters = cluster.metrics();
            List<byte[]> data = new ArrayList<>();
            List<StoredFile> files = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                if (i == 2) {
                    cluster.probePods(); // the periodic probe finds the pod unassigned and assigns it
                }
                byte[] d = randomBytes(random, 1 + random.nextInt(1 << 16));
                StoredFile f = write(cluster.dataPath(), d);
                assertThat(f.stashed()).isTrue();
                assertThat(f.missingShards()).as("file %d: the refusing pod's shard was written durably", i).isEmpty();
                data.add(d);
                files.add(f);
                if (i == 0) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (cluster.assignments().canRecoverBuffered(MiniCluster.VAULT_ID, CRASHED)
                            && System.nanoTime() < deadline && sleep()) {
                        // the refusal may land after the write was decided
                    }
                }
                PodStats pod = cluster.pod(CRASHED).stats();
                if (i < 2) {
                    assertThat(pod.unflushedShards()).as("file %d: nothing buffered on the unassigned pod", i)
                            .isZero();
                    assertThat(meters.get("shardvault.data.write.refused.buffered").counter().count())
                            .as("buffered writes refused (then the coordinator stops sending them)").isEqualTo(1.0);
                } else {
                    assertThat(pod.unflushedShards()).as("assigned again, it takes buffered writes").isEqualTo(1);
                }
                assertThat(cluster.pod(0).stats().unflushedShards()).isEqualTo(i + 1);
            }
            assertThat(meters.get("shardvault.data.write.durable.unassigned").counter().count())
                    .as("the second file went to the unassigned pod durably from the start").isEqualTo(1.0);
            // The refused chunk's stash copy is purged by the coordinator (no pod would); the second had none.
            try (RpcClient rpc = RpcClient.create(cluster.transport(), RpcClientConfig.defaults())) {
                StashClient stash = new StashClient(rpc);
                InetSocketAddress server = new StashPlacement(cluster.stashAddresses())
                        .serverFor(MiniCluster.VAULT_ID, CRASHED);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                List<Long> stashed;
                do {
                    stashed = stash.list(server, MiniCluster.VAULT_ID, CRASHED, Optional.empty(), 100).join()
                            .entries().stream().map(e -> e.id().fileId()).toList();
                } while (stashed.size() > 1 && System.nanoTime() < deadline && sleep());
                assertThat(stashed).as("stash copies of the pod's shards").containsExactly(files.get(2).fileId());
            }
            for (int f = 0; f < files.size(); f++) {
                assertThat(read(cluster.dataPath(), files.get(f))).as("file %d", f).isEqualTo(data.get(f));
            }
        });
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(20);
        return true;
    }
}
