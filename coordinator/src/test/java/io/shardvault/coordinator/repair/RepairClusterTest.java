package io.shardvault.coordinator.repair;

import static io.shardvault.coordinator.testing.HealingCluster.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ShardId;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repair end to end over real pods (a 16+4 MiniCluster), a real one-peer Ratis catalog and the repair
 * worker: a shard missed at write and a chunk rotted on disk are queued, rebuilt and written back, and
 * then carry reads that only they make possible (four other pods down).
 */
@Timeout(300)
class RepairClusterTest {
    @TempDir
    Path dir;

    private HealingCluster h;
    private MiniCluster cluster;
    private RepairMetrics metrics;

    @BeforeEach
    void start() throws Exception {
        h = HealingCluster.start(dir, "repairs");
        cluster = h.cluster();
        metrics = h.repairMetrics();
        h.closeLater(RepairWorker.start(RepairConfig.defaults().withPace(Duration.ofMillis(200), Duration.ofMillis(300)),
                h.catalog(), h::leads, h.vaults(), h.data(), h.pods(), h.codecs(), metrics,
                HealingCluster.CALL_TIMEOUT));
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void shardsMissedAtWriteAreRepairedOnceThePodIsBackAndThenCarryReadsWithFourOtherPodsDown() throws Exception {
        int down = 3;
        cluster.stopPod(down);
        for (int i = 0; i < 3; i++) {
            StoredFile f = h.write("small-" + i, h.bytes(50_000 + 10_000 * i));
            assertThat(f.missingShards()).as("small-" + i).containsExactly(down);
        }
        assertThat(h.write("large", h.bytes(10 * 1024 * 1024 + 12_345)).missingShards()).containsExactly(down);
        int objects = h.objects().size();
        // Queued by the commits; the worker cannot repair them while the pod is down: they stay, backed off.
        List<RepairTask> queued = h.catalog().listRepairs(0, 0, 100).join();
        assertThat(queued).hasSize(objects).allSatisfy(t -> {
            assertThat(t.shards()).containsExactly(down);
            assertThat(t.reason()).isEqualTo("write-missed");
        });
        awaitTrue("a failed repair attempt", () -> metrics.failures.count() >= 1);
        assertThat(h.catalog().listRepairs(0, 0, 100).join()).hasSize(objects);

        cluster.restartPod(down);
        awaitTrue("the queue to empty", () -> h.catalog().listRepairs(0, 0, 100).join().isEmpty());
        assertThat(metrics.shardsRepaired.count()).isEqualTo(objects);
        assertThat(metrics.bytesRepaired.count()).isPositive();

        // Only 16 pods left, one of them the repaired shard's: every object must read back exact.
        for (int p : new int[] {0, 1, 2, 17}) {
            cluster.stopPod(p);
        }
        h.stopStash();
        h.assertReadBack();
    }

    /**
     * A stashed file written while its pod was down keeps that shard only as a stash copy, which no pod
     * ever purges (it buffered nothing to flush): the copy must stay until the repair made the shard
     * durable on the pod, and go then.
     */
    @Test
    void aStashCopyOfAShardMissedAtWriteStaysUntilItsRepairAndGoesAfterIt() throws Exception {
        int down = 7;
        cluster.stopPod(down);
        Set<Long> fileIds = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            StoredFile f = h.write("stashed-" + i, h.bytes(20_000 + 15_000 * i));
            assertThat(f.stashed()).as("stashed-" + i).isTrue();
            assertThat(f.missingShards()).as("stashed-" + i).containsExactly(down);
            fileIds.add(f.fileId());
        }
        // The running pods flush and purge their copies; the down pod's slot keeps one per file: its only copy.
        awaitTrue("the running pods' purges", () -> h.stashEntriesPerSlot(fileIds).keySet().equals(Set.of(down)));
        awaitTrue("a failed repair attempt", () -> metrics.failures.count() >= 1);
        assertThat(h.stashEntriesPerSlot(fileIds)).containsExactly(Map.entry(down, fileIds.size()));

        cluster.restartPod(down);
        awaitTrue("the queue to empty", () -> h.catalog().listRepairs(0, 0, 100).join().isEmpty());
        assertThat(metrics.shardsRepaired.count()).isEqualTo(fileIds.size());
        assertThat(h.stashEntriesPerSlot(fileIds)).as("stash entries per slot after the repair").isEmpty();

        // The repaired shards carry the reads: four other pods and every stash server stopped.
        for (int p : new int[] {0, 1, 2, 17}) {
            cluster.stopPod(p);
        }
        h.stopStash();
        h.assertReadBack();
    }

    @Test
    void aChunkRottedOnDiskIsQueuedByTheReadThatFoundItAndRepaired() throws Exception {
        StoredFile f = h.write("large", h.bytes(9 * 1024 * 1024 + 777));
        assertThat(f.missingShards()).isEmpty();
        assertThat(h.catalog().listRepairs(0, 0, 100).join()).isEmpty();
        int rotten = 5;
        Path file = cluster.shardFile(rotten, new ShardId(f.vaultId(), f.fileId(), rotten));
        HealingCluster.flipByte(file, 32 + 28 + 100);

        h.assertReadBack();
        awaitTrue("the read's report", () -> metrics.reportsQueued.count() >= 1);
        awaitTrue("the repair", () -> metrics.shardsRepaired.count() >= 1
                && h.catalog().listRepairs(0, 0, 100).join().isEmpty());

        for (int p : new int[] {0, 1, 2, 16}) {
            cluster.stopPod(p);
        }
        h.assertReadBack();
    }
}
