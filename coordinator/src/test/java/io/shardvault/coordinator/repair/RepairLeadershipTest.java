package io.shardvault.coordinator.repair;

import static io.shardvault.coordinator.testing.HealingCluster.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ShardId;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repair whose coordinator loses the catalog's lead halfway (issue #20; {@link LeaderTenure}): real pods and
 * catalog (a 16+4 {@link HealingCluster}), a file of several stripes queued for a shard's repair, and a worker
 * whose "leads" turns false the moment the pod has deleted the shard (the repair's first pod call). The worker
 * must send nothing more: no chunk of the shard is written after it lost the lead (a deposed leader's write or
 * delete could otherwise cross the new leader's), the file stays queued, and a leader then repairs it exactly.
 */
@Timeout(180)
class RepairLeadershipTest {
    @TempDir
    Path dir;

    private HealingCluster h;

    @BeforeEach
    void start() throws Exception {
        h = HealingCluster.start(dir, "leadership");
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aRepairStopsAtTheLeadsLossBeforeItsNextPodCallAndTheNextLeaderFinishesIt() throws Exception {
        int target = 6;
        StoredFile f = h.write("large", h.bytes(9 * 1024 * 1024 + 777));
        assertThat(f.layout().stripeCount(f.size())).isGreaterThan(1);
        Path shard = h.cluster().shardFile(target, new ShardId(f.vaultId(), f.fileId(), target));
        assertThat(shard).exists();
        h.catalog().enqueueRepair(f.vaultId(), f.fileId(), List.of(target), "read-corrupt").join();

        // Leads until the pod has deleted the shard: the repair's first pod call.
        AtomicBoolean deposed = new AtomicBoolean();
        RepairMetrics metrics = h.repairMetrics();
        RepairConfig pace = RepairConfig.defaults().withPace(Duration.ofMillis(100), Duration.ofMinutes(10));
        RepairWorker old = h.closeLater(RepairWorker.start(pace, h.catalog(), () -> {
            if (!Files.exists(shard)) {
                deposed.set(true);
            }
            return !deposed.get();
        }, h.vaults(), h.data(), h.pods(), h.codecs(), metrics, HealingCluster.CALL_TIMEOUT));
        awaitTrue("the deposed worker's failed attempt", () -> metrics.failures.count() >= 1);
        Thread.sleep(500);
        assertThat(shard).as("no chunk written after the lead was lost").doesNotExist();
        assertThat(h.catalog().listRepairs(0, 0, 10).join()).singleElement()
                .satisfies(t -> assertThat(t.shards()).containsExactly(target));
        assertThat(metrics.shardsRepaired.count()).isZero();
        old.close();

        h.closeLater(RepairWorker.start(pace, h.catalog(), h::leads, h.vaults(), h.data(), h.pods(), h.codecs(),
                metrics, HealingCluster.CALL_TIMEOUT));
        awaitTrue("the queue to empty", () -> h.catalog().listRepairs(0, 0, 10).join().isEmpty());
        assertThat(shard).exists();
        h.stopPods(0, 1, 2, 17);
        h.stopStash();
        h.assertReadBack();
    }
}
