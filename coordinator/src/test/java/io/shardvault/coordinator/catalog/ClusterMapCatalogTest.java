package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * REGISTER_CLUSTER_MAP through a one-peer Ratis group: the whole map in one command, again a no-op, and
 * every kind of disagreement refused with nothing written; a pod a decommission moved is the one difference
 * taken, with a note.
 */
@Timeout(120)
class ClusterMapCatalogTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);
    private static final List<StashInfo> STASHES = List.of(new StashInfo("stash-0", "127.0.0.1", 7400),
            new StashInfo("stash-1", "127.0.0.1", 7401));

    @Test
    void registersTheMapOnceAndRefusesEveryDisagreementWritingNothing(@TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            MapRegistration first = catalog.registerClusterMap(List.of(vault(LAYOUT, pods(7000))), STASHES).join();
            assertThat(first.changed()).isTrue();
            assertThat(first.notes()).containsExactly("added vault 1 (4+2, chunks of 65536 bytes) with its 6 pods",
                    "added 2 stash servers");
            List<VaultInfo> vaults = catalog.listVaults().join();
            assertThat(vaults).singleElement().satisfies(v -> assertThat(v.pods()).isEqualTo(pods(7000)));
            assertThat(catalog.listStashes().join()).containsExactlyElementsOf(STASHES);

            MapRegistration again = catalog.registerClusterMap(List.of(vault(LAYOUT, pods(7000))), STASHES).join();
            assertThat(again.changed()).isFalse();
            assertThat(again.notes()).isEmpty();

            assertConflict(catalog.registerClusterMap(List.of(vault(new FileLayout(3, 3, 65536), pods(7000))),
                    STASHES), "vault 1 is 4+2, chunks of 65536 bytes in the catalog, 3+3, chunks of 65536 bytes");
            List<PodInfo> reordered = new ArrayList<>(pods(7000));
            reordered.set(0, new PodInfo(1, 0, "127.0.0.1", 7001));
            reordered.set(1, new PodInfo(1, 1, "127.0.0.1", 7000));
            assertConflict(catalog.registerClusterMap(List.of(vault(LAYOUT, reordered)), STASHES),
                    "pod 0 of vault 1 is at 127.0.0.1:7000 in the catalog, at 127.0.0.1:7001 in the map, which is"
                            + " pod 1 there (pods reordered?)");
            List<PodInfo> moved = new ArrayList<>(pods(7000));
            moved.set(5, new PodInfo(1, 5, "127.0.0.1", 7999));
            assertConflict(catalog.registerClusterMap(List.of(vault(LAYOUT, moved)), STASHES),
                    "pod 5 of vault 1 is at 127.0.0.1:7005 in the catalog, at 127.0.0.1:7999 in the map (moved"
                            + " outside a decommission?)");
            assertConflict(catalog.registerClusterMap(List.of(vault(LAYOUT, pods(7000))), STASHES.subList(0, 1)),
                    "the catalog's stash servers are [stash-0=127.0.0.1:7400, stash-1=127.0.0.1:7401], the map's"
                            + " [stash-0=127.0.0.1:7400]");
            assertConflict(catalog.registerClusterMap(List.of(), STASHES),
                    "the catalog holds vault 1, which the map lacks");
            assertThat(catalog.listVaults().join()).as("nothing written by a refused map").isEqualTo(vaults);
            assertThat(catalog.listStashes().join()).containsExactlyElementsOf(STASHES);

            // A decommission moves pod 2 to 7202: the map file with its old address is a decommission behind.
            PodRebuildJob job = catalog.startPodDecommission(1, 2, "127.0.0.1", 7202, "127.0.0.1", 7002, 0).join();
            catalog.checkpointPodRebuild(job.progressed(PodRebuildJob.State.DONE, 0, 0, 0, 0, 0)).join();
            MapRegistration behind = catalog.registerClusterMap(List.of(vault(LAYOUT, pods(7000))), STASHES).join();
            assertThat(behind.changed()).isFalse();
            assertThat(behind.notes()).containsExactly("pod 2 of vault 1 is at 127.0.0.1:7202 since a decommission"
                    + " moved it from 127.0.0.1:7002: update the map file");
            // A rebuild in place afterwards replaces the pod's job row: the move is still on record.
            PodRebuildJob rebuild = catalog.startPodRebuild(1, 2, "127.0.0.1", 7202, false, 0).join();
            catalog.checkpointPodRebuild(rebuild.progressed(PodRebuildJob.State.DONE, 0, 0, 0, 0, 0)).join();
            assertThat(catalog.registerClusterMap(List.of(vault(LAYOUT, pods(7000))), STASHES).join().notes())
                    .isEqualTo(behind.notes());
        }
    }

    private static VaultInfo vault(FileLayout layout, List<PodInfo> pods) {
        return new VaultInfo(1, layout, Long.MAX_VALUE, pods);
    }

    private static List<PodInfo> pods(int firstPort) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            pods.add(new PodInfo(1, i, "127.0.0.1", firstPort + i));
        }
        return pods;
    }

    private static void assertConflict(CompletableFuture<?> f, String naming) {
        try {
            f.join();
            throw new AssertionError("expected CONFLICT naming: " + naming);
        } catch (CompletionException e) {
            CatalogException c = (CatalogException) e.getCause();
            assertThat(c.code()).isEqualTo(ErrorCode.CONFLICT);
            assertThat(c.getMessage()).contains(naming);
        }
    }
}
