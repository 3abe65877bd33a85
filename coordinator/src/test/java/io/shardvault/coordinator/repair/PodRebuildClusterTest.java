package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pod rebuild end to end over real pods (a 16+4 MiniCluster), a real one-peer Ratis catalog and the
 * rebuild worker: a pod whose tome was wiped is rebuilt from the others, and then carries reads that
 * only it makes possible (four other pods and the stash down); writes go on during the rebuild; a
 * rebuild stopped halfway resumes from its checkpoint, not from zero.
 */
@Timeout(300)
class PodRebuildClusterTest {
    @TempDir
    Path dir;

    private HealingCluster h;
    private MiniCluster cluster;

    @BeforeEach
    void start() throws IOException {
        h = HealingCluster.start(dir, "rebuilds");
        cluster = h.cluster();
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aWipedPodIsRebuiltWhileWritesGoOnAndThenCarriesReadsWithFourOtherPodsDown() throws Exception {
        int wiped = 7;
        int before = h.writeMixedLoad();
        cluster.wipePod(wiped);
        assertThat(shardFiles(wiped)).isZero();

        // A check first: it counts the missing shards and writes none.
        PodRebuildMetrics checkMetrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker checker = h.rebuildWorker(1L << 30, 100, checkMetrics);
        PodRebuildJob check = checker.start(MiniCluster.VAULT_ID, wiped, true).join();
        assertThat(check.checkOnly()).isTrue();
        PodRebuildJob checked = h.awaitDone(check);
        assertThat(checked.shardsRebuilt()).isEqualTo(before - 1);
        assertThat(checked.bytesRebuilt()).isZero();
        assertThat(shardFiles(wiped)).isZero();
        checker.close();

        PodRebuildMetrics metrics = new PodRebuildMetrics(new SimpleMeterRegistry());
        PodRebuildWorker w = h.rebuildWorker(4L << 20, 3, metrics);
        PodRebuildJob job = w.start(MiniCluster.VAULT_ID, wiped, false).join();
        assertThat(job.filesTotal()).isEqualTo(before);
        // Writes go on during the rebuild (the wiped pod takes its shards of them).
        for (int i = 0; i < 4; i++) {
            h.write("during-" + i, h.bytes(300_000 + 1_000 * i));
        }
        PodRebuildJob done = h.awaitDone(job);
        assertThat(done.failures()).isZero();
        assertThat(done.shardsRebuilt()).isGreaterThanOrEqualTo(before - 1);
        assertThat(done.bytesRebuilt()).isPositive();
        assertThat(metrics.bytesRebuilt.count()).isEqualTo(done.bytesRebuilt());
        PodRebuildWorker.Progress p = w.jobs().join().get(0);
        assertThat(p.job().state()).isEqualTo(PodRebuildJob.State.DONE);
        assertThat(p.etaSeconds()).isZero();

        // Only 16 pods left, the rebuilt one among them, and no stash copies: every object must read back exact.
        for (int pod : new int[] {0, 1, 2, 16}) {
            cluster.stopPod(pod);
        }
        h.stopStash();
        h.assertReadBack();
    }

    /**
     * A parity pod's shards are computed, not read: each from its own row of the code. With four data pods
     * down, every stripe needs the rebuilt parity shard to decode.
     */
    @Test
    void aWipedParityPodIsRebuiltAndThenCarriesReadsWithFourDataPodsDown() throws Exception {
        int wiped = 18;
        int before = h.writeMixedLoad();
        cluster.wipePod(wiped);
        PodRebuildWorker w = h.rebuildWorker(1L << 30, 3, new PodRebuildMetrics(new SimpleMeterRegistry()));
        PodRebuildJob done = h.awaitDone(w.start(MiniCluster.VAULT_ID, wiped, false).join());
        assertThat(done.failures()).isZero();
        assertThat(done.shardsRebuilt()).isEqualTo(before - 1);
        w.close();

        for (int pod : new int[] {0, 5, 9, 15}) {
            cluster.stopPod(pod);
        }
        h.stopStash();
        h.assertReadBack();
    }

    @Test
    void aRebuildStoppedHalfwayResumesFromItsCheckpointNotFromZeroAndRedoesAHalfWrittenShard() throws Exception {
        int wiped = 4;
        HalfwayResume.Resumed r = HalfwayResume.stopHalfwayAndResume(h, 8, wiped, cluster.podAddress(wiped), w -> {
            cluster.wipePod(wiped);
            return w.start(MiniCluster.VAULT_ID, wiped, false).join();
        });
        // ... and found the half-written shard by its missing tail (read back below with four other pods down).
        for (int pod : new int[] {0, 1, 2, 17}) {
            cluster.stopPod(pod);
        }
        h.stopStash();
        h.assertReadBack();
        assertThat(r.metrics().tailChecks.count()).isPositive();
    }

    private long shardFiles(int pod) throws IOException {
        Path tome = dir.resolve("vault").resolve("pod-" + pod).resolve("tome0");
        if (!Files.exists(tome)) {
            return 0;
        }
        try (var all = Files.walk(tome)) {
            return all.filter(f -> f.toString().endsWith(".shard")).count();
        }
    }
}
