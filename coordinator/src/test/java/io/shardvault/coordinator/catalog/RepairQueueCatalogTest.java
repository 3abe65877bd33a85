package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The repair queue through a one-peer Ratis group: enqueue, list and remove, kept across a restart. */
@Timeout(120)
class RepairQueueCatalogTest {

    @Test
    void repairsAreQueuedThroughRaftAndSurviveARestart(@TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            catalog.registerVault(new VaultInfo(1, new FileLayout(4, 2, 65536), 1L << 40, List.of())).join();
            RepairTask t = catalog.enqueueRepair(1, 42, List.of(4, 2), "missing-at-write").join();
            assertThat(t.shards()).containsExactly(2, 4);
            catalog.enqueueRepair(1, 43, List.of(0), "corrupt-on-read").join();
            assertThat(catalog.removeRepair(1, 43, List.of(0)).join()).isEmpty();
            try {
                catalog.enqueueRepair(1, 44, List.of(6), "scrub").join();
                throw new AssertionError("a shard outside the layout was queued");
            } catch (CompletionException e) {
                assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            }
            assertThat(server.takeSnapshot().join()).isGreaterThan(0L);
        }
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            List<RepairTask> queued = awaitList(catalog);
            assertThat(queued).extracting(RepairTask::fileId).containsExactly(42L);
            assertThat(queued.get(0).reason()).isEqualTo("missing-at-write");
            assertThat(catalog.removeRepair(1, 42, List.of(2)).join()).get()
                    .extracting(RepairTask::shards).isEqualTo(List.of(4));
        }
    }

    /** The restarted peer elects itself; reads before that wait (bounded). */
    private static List<RepairTask> awaitList(Catalog catalog) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                return catalog.listRepairs(0, 0, 100).join();
            } catch (CompletionException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the restarted catalog did not answer");
    }
}
