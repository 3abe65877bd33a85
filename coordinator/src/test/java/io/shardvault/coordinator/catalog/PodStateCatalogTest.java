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

/**
 * Pod states are catalog state: set through Raft, listed, kept across a restart of the peer, and
 * refused for a pod nobody registered; the peer's status, snapshot and leadership checks answer.
 */
@Timeout(120)
class PodStateCatalogTest {

    @Test
    void podStatesSurviveARestartAndUnknownPodsAreRefused(@TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            catalog.registerVault(new VaultInfo(3, new FileLayout(4, 2, 65536), 1L << 40, List.of())).join();
            for (int i = 0; i < 6; i++) {
                catalog.registerPod(new PodInfo(3, i, "127.0.0.1", 7000 + i)).join();
            }
            assertThat(catalog.listPodStates().join()).isEmpty();
            PodStatus drained = catalog.setPodState(3, 2, PodState.DRAINING).join();
            assertThat(drained.state()).isEqualTo(PodState.DRAINING);
            catalog.setPodState(3, 5, PodState.DOWN).join();
            assertThat(catalog.listPodStates().join()).extracting(PodStatus::shardIndex, PodStatus::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(2, PodState.DRAINING),
                            org.assertj.core.groups.Tuple.tuple(5, PodState.DOWN));
            try {
                catalog.setPodState(3, 9, PodState.DOWN).join();
                throw new AssertionError("an unregistered pod was accepted");
            } catch (CompletionException e) {
                assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            }

            CatalogStatus status = server.status();
            assertThat(status.role()).isEqualTo("LEADER");
            assertThat(status.leaderId()).contains("p1");
            assertThat(status.appliedIndex()).isPositive();
            assertThat(server.takeSnapshot().join()).isGreaterThan(0L);
            assertThat(server.transferLeadership("p9")).isCompletedExceptionally();
        }
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            List<PodStatus> states = awaitRead(catalog);
            assertThat(states).extracting(PodStatus::shardIndex).containsExactly(2, 5);
            catalog.setPodState(3, 2, PodState.UP).join();
            assertThat(catalog.listPodStates().join()).extracting(PodStatus::shardIndex).containsExactly(5);
        }
    }

    /** The restarted peer elects itself; reads before that wait (bounded). */
    private static List<PodStatus> awaitRead(Catalog catalog) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                return catalog.listPodStates().join();
            } catch (CompletionException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the restarted catalog did not answer");
    }
}
