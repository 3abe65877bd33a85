package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog side of a pod rebuild through a one-peer Ratis group: the ordered walk of a vault's live
 * files (LIST_FILES), and the job row (start, checkpoint, finish), kept across a restart; a decommission's
 * finish moves the pod to its replacement in the vault map.
 */
@Timeout(120)
class PodRebuildCatalogTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @Test
    void listFilesWalksAVaultsLiveFilesInFileIdOrderPageByPage(@TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            catalog.registerVault(new VaultInfo(1, LAYOUT, 1L << 40, List.of())).join();
            catalog.registerVault(new VaultInfo(2, LAYOUT, 1L << 40, List.of())).join();
            catalog.createBucket("walk", "AK", false).join();
            // Committed out of file id order, in two vaults; one is overwritten (released) again.
            for (long id : new long[] {30, 10, 20, 40}) {
                put(catalog, "k" + id, new FileRef(1, id, id * 100, LAYOUT, id == 20 ? List.of(3) : List.of()));
            }
            put(catalog, "other", new FileRef(2, 15, 5, LAYOUT, List.of()));
            put(catalog, "k40", new FileRef(1, 50, 7, LAYOUT, List.of()));

            assertThat(catalog.listFiles(1, -1, 100).join()).extracting(FileRef::fileId)
                    .containsExactly(10L, 20L, 30L, 50L);
            assertThat(catalog.listFiles(1, -1, 2).join()).extracting(FileRef::fileId).containsExactly(10L, 20L);
            assertThat(catalog.listFiles(1, 20, 2).join()).extracting(FileRef::fileId).containsExactly(30L, 50L);
            assertThat(catalog.listFiles(1, 50, 2).join()).isEmpty();
            assertThat(catalog.listFiles(2, -1, 10).join()).extracting(FileRef::fileId).containsExactly(15L);
            FileRef twenty = catalog.listFiles(1, 10, 1).join().get(0);
            assertThat(twenty.size()).isEqualTo(2000);
            assertThat(twenty.missingShards()).containsExactly(3);
        }
    }

    @Test
    void aJobStartsOncePerPodCheckpointsForwardOnlyFinishesAndSurvivesARestart(@TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        PodRebuildJob job;
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            catalog.registerVault(new VaultInfo(1, LAYOUT, 1L << 40,
                    List.of(new PodInfo(1, 3, "127.0.0.1", 7003)))).join();
            assertCode(catalog.startPodRebuild(1, 4, "127.0.0.1", 7004, false, 10), ErrorCode.INVALID_ARGUMENT);

            job = catalog.startPodRebuild(1, 3, "127.0.0.1", 7003, false, 10).join();
            assertThat(job.state()).isEqualTo(PodRebuildJob.State.RUNNING);
            assertThat(job.position()).isEqualTo(-1);
            assertThat(job.filesTotal()).isEqualTo(10);
            assertCode(catalog.startPodRebuild(1, 3, "127.0.0.1", 7003, false, 10), ErrorCode.CONFLICT);

            PodRebuildJob at5 = catalog.checkpointPodRebuild(
                    job.progressed(PodRebuildJob.State.RUNNING, 5, 5, 4, 4096, 0)).join();
            assertThat(at5.position()).isEqualTo(5);
            assertThat(at5.bytesRebuilt()).isEqualTo(4096);
            // A late checkpoint from behind (a coordinator that lost the lead) is refused.
            assertCode(catalog.checkpointPodRebuild(job.progressed(PodRebuildJob.State.RUNNING, 3, 3, 2, 10, 0)),
                    ErrorCode.CONFLICT);
            assertThat(server.takeSnapshot().join()).isGreaterThan(0L);
        }
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            List<PodRebuildJob> jobs = awaitJobs(catalog);
            assertThat(jobs).hasSize(1);
            assertThat(jobs.get(0).position()).isEqualTo(5);
            assertThat(jobs.get(0).jobId()).isEqualTo(job.jobId());
            PodRebuildJob done = catalog.checkpointPodRebuild(
                    jobs.get(0).progressed(PodRebuildJob.State.DONE, 9, 9, 6, 8192, 1)).join();
            assertThat(done.state()).isEqualTo(PodRebuildJob.State.DONE);
            assertThat(done.startedAt()).isEqualTo(job.startedAt());
            // Done: no more checkpoints of it, and the pod may be rebuilt again, as a new job.
            assertCode(catalog.checkpointPodRebuild(done.progressed(PodRebuildJob.State.RUNNING, 9, 9, 6, 8192, 1)),
                    ErrorCode.CONFLICT);
            PodRebuildJob again = catalog.startPodRebuild(1, 3, "127.0.0.1", 7103, true, 12).join();
            assertThat(again.jobId()).isNotEqualTo(job.jobId());
            assertThat(again.checkOnly()).isTrue();
            assertThat(again.targetPort()).isEqualTo(7103);
            assertCode(catalog.checkpointPodRebuild(done), ErrorCode.CONFLICT);
            assertThat(catalog.listPodRebuilds().join()).containsExactly(again);
        }
    }

    @Test
    void theCheckpointThatEndsADecommissionMovesThePodToItsReplacementAndTheMapSurvivesASnapshotAndRestart(
            @TempDir Path dir) throws Exception {
        List<Integer> ports = FreePorts.loopback(1);
        CatalogConfig config = CatalogTestPeers.config("p1", CatalogTestPeers.peersSpec(ports), dir, 1000);
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            catalog.registerVault(new VaultInfo(1, LAYOUT, 1L << 40, List.of(new PodInfo(1, 2, "127.0.0.1", 7002),
                    new PodInfo(1, 3, "127.0.0.1", 7003)))).join();
            PodRebuildJob job = catalog.startPodDecommission(1, 3, "127.0.0.1", 7203, "127.0.0.1", 7003, 4).join();
            catalog.checkpointPodRebuild(job.progressed(PodRebuildJob.State.RUNNING, 2, 2, 2, 100, 0)).join();
            assertThat(pod(catalog, 3).port()).as("copying: the old pod serves").isEqualTo(7003);

            PodRebuildJob done = catalog.checkpointPodRebuild(
                    job.progressed(PodRebuildJob.State.DONE, 4, 4, 4, 200, 0)).join();
            assertThat(done.state()).isEqualTo(PodRebuildJob.State.DONE);
            assertThat(pod(catalog, 3)).isEqualTo(new PodInfo(1, 3, "127.0.0.1", 7203));
            assertThat(pod(catalog, 2).port()).as("the other pods stay").isEqualTo(7002);
            // A rebuild's DONE never moves a pod: it wrote to the map's address.
            PodRebuildJob rebuild = catalog.startPodRebuild(1, 2, "127.0.0.1", 7002, false, 4).join();
            catalog.checkpointPodRebuild(rebuild.progressed(PodRebuildJob.State.DONE, 4, 4, 0, 0, 0)).join();
            assertThat(pod(catalog, 2).port()).isEqualTo(7002);
            assertThat(server.takeSnapshot().join()).isGreaterThan(0L);
        }
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            Catalog catalog = server.catalog();
            awaitJobs(catalog);
            assertThat(pod(catalog, 3)).isEqualTo(new PodInfo(1, 3, "127.0.0.1", 7203));
            assertThat(pod(catalog, 2).port()).isEqualTo(7002);
        }
    }

    private static PodInfo pod(Catalog catalog, int shardIndex) {
        return catalog.listVaults().join().get(0).pods().stream().filter(p -> p.shardIndex() == shardIndex)
                .findFirst().orElseThrow();
    }

    private static void put(Catalog catalog, String key, FileRef file) {
        catalog.putObjectVersion(PutObjectVersion.of("walk", key, "etag", ObjectMetadata.EMPTY, file)).join();
    }

    private static void assertCode(CompletableFuture<?> f, ErrorCode code) {
        try {
            f.join();
            throw new AssertionError("expected " + code);
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(code);
        }
    }

    /** The restarted peer elects itself; reads before that wait (bounded). */
    private static List<PodRebuildJob> awaitJobs(Catalog catalog) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                return catalog.listPodRebuilds().join();
            } catch (CompletionException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the restarted catalog did not answer " + Optional.empty());
    }
}
