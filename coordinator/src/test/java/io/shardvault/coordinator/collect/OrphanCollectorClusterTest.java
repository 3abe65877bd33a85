package io.shardvault.coordinator.collect;

import static io.shardvault.coordinator.testing.HealingCluster.writeUncommitted;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileKey;
import io.shardvault.coordinator.catalog.FileState;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.data.internal.ShardDataPath;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan collection end to end over real pods and stash servers (a 16+4 MiniCluster, flushes held back so
 * small files' stash copies stay) and a real one-peer Ratis catalog (issue #20, section 5): files whose
 * writer died between the data write and the commit are collected once past the grace period, on every pod
 * and stash server, and every referenced file, its unflushed shards' stash copies included, stays and reads
 * back exact; a commit racing the fence of its file is refused or wins, never both.
 */
@Timeout(300)
class OrphanCollectorClusterTest {
    @TempDir
    Path dir;

    private HealingCluster h;
    private MiniCluster cluster;
    private Catalog catalog;
    private final CollectMetrics metrics = new CollectMetrics(new SimpleMeterRegistry());

    @BeforeEach
    void start() throws IOException {
        h = HealingCluster.start(dir, "orphans", MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.flush.interval", "10m")));
        cluster = h.cluster();
        catalog = h.catalog();
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    private OrphanCollector collector(Duration grace) {
        return h.closeLater(OrphanCollector.start(CollectConfig.defaults().withPace(grace, Duration.ofHours(1)),
                catalog, h::leads, h.vaults(), h.pods(), new StashClient(h.rpc()),
                cluster.stashAddresses(), metrics, HealingCluster.CALL_TIMEOUT));
    }

    @Test
    void filesWrittenByACoordinatorThatDiedBeforeItsCommitAreCollectedAfterTheGraceAndEveryReferencedFileStays()
            throws Exception {
        Map<String, StoredFile> committed = new LinkedHashMap<>();
        committed.put("small-0", h.write("small-0", h.bytes(40_000)));
        committed.put("small-1", h.write("small-1", h.bytes(300_000)));
        committed.put("large", h.write("large", h.bytes(5 * 1024 * 1024 + 321)));
        // A second coordinator writes two files' shards (one small and stashed, one large) and dies before
        // committing them.
        ShardDataPath doomed = h.newDataPath();
        List<StoredFile> orphans = List.of(writeUncommitted(doomed, h.bytes(60_000)),
                writeUncommitted(doomed, h.bytes(3 * 1024 * 1024 + 7)));
        doomed.close();
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).as("orphan %s written", f.fileId()).isGreaterThanOrEqualTo(19);
        }
        assertThat(stashEntries(orphans.get(0))).as("the small orphan's stash copies").isNotEmpty();
        StoredFile smallCommitted = committed.get("small-0");
        int stashedLive = stashEntries(smallCommitted).size();
        assertThat(stashedLive).as("the live small file's unflushed shards' stash copies").isPositive();

        // Within the grace period: found, left alone.
        OrphanCollector.Pass early = collector(Duration.ofHours(1)).collectNow();
        assertThat(early.orphansFound()).isEqualTo(2);
        assertThat(early.orphansWaiting()).isEqualTo(2);
        assertThat(early.filesCollected()).isZero();
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).isGreaterThanOrEqualTo(19);
        }

        // Past it: the orphans go from every pod and stash server; nothing referenced is touched.
        OrphanCollector.Pass pass = collector(Duration.ofMillis(1)).collectNow();
        assertThat(pass.filesCollected()).isEqualTo(2);
        for (StoredFile f : orphans) {
            assertThat(shardsOnPods(f)).as("orphan %s's shards", f.fileId()).isZero();
            assertThat(stashEntries(f)).as("orphan %s's stash entries", f.fileId()).isEmpty();
            assertThat(catalog.fileStates(List.of(key(f))).join()).containsExactly(FileState.COLLECTED);
        }
        assertThat(metrics.filesCollected.count()).isEqualTo(2.0);
        assertThat(metrics.shardsDeleted.count()).isGreaterThanOrEqualTo(38.0);
        assertThat(metrics.stashEntriesPurged.count()).isPositive();
        assertThat(metrics.lastPassMillis.get()).isPositive();
        for (StoredFile f : committed.values()) {
            assertThat(shardsOnPods(f)).as("live file %s's shards", f.fileId()).isGreaterThanOrEqualTo(19);
        }
        assertThat(stashEntries(smallCommitted)).as("the live file's stash copies").hasSize(stashedLive);
        h.assertReadBack();

        // A second pass finds nothing left to do.
        assertThat(collector(Duration.ofMillis(1)).collectNow().orphansFound()).isZero();
    }

    @Test
    void aCommitAndTheFenceOfItsFileRaceAndWhicheverAppliesFirstNoAcknowledgedObjectPointsAtCollectedShards()
            throws Exception {
        // The fence applies first: the commit is refused, definitely, and nothing is acknowledged.
        StoredFile late = writeUncommitted(h.data(), h.bytes(70_000));
        assertThat(catalog.collectFiles(List.of(key(late))).join()).containsExactly(key(late));
        try {
            h.commit("late", late);
            throw new AssertionError("a commit of a fenced file was acknowledged");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.CONFLICT);
        }
        try {
            catalog.getObjectVersion("orphans", "late", Optional.empty()).join();
            throw new AssertionError("the refused commit wrote a version");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.NO_SUCH_KEY);
        }

        // The commit applies first: the fence refuses the file, and the collector leaves it.
        StoredFile first = h.write("first", h.bytes(80_000));
        assertThat(catalog.collectFiles(List.of(key(first))).join()).isEmpty();

        OrphanCollector.Pass pass = collector(Duration.ofMillis(1)).collectNow();
        assertThat(pass.filesCollected()).as("only the fenced file").isEqualTo(1);
        assertThat(shardsOnPods(late)).isZero();
        assertThat(shardsOnPods(first)).isGreaterThanOrEqualTo(19);
        h.assertReadBack();
        // And the fenced file can never be committed later, however late its commit comes.
        try {
            h.commit("later-still", late);
            throw new AssertionError("a commit of a collected file was acknowledged");
        } catch (CompletionException e) {
            assertThat(((CatalogException) e.getCause()).code()).isEqualTo(ErrorCode.CONFLICT);
        }
    }

    private static FileKey key(StoredFile f) {
        return new FileKey(f.vaultId(), f.fileId());
    }

    private int shardsOnPods(StoredFile f) {
        int n = 0;
        for (int i = 0; i < cluster.podCount(); i++) {
            if (Files.exists(cluster.shardFile(i, new ShardId(f.vaultId(), f.fileId(), i)))) {
                n++;
            }
        }
        return n;
    }

    private List<StashEntryInfo> stashEntries(StoredFile f) {
        StashClient stash = new StashClient(h.rpc());
        List<StashEntryInfo> out = new ArrayList<>();
        for (InetSocketAddress server : cluster.stashAddresses()) {
            for (int i = 0; i < cluster.podCount(); i++) {
                Optional<ShardId> after = Optional.empty();
                do {
                    StashPage page = stash.list(server, f.vaultId(), i, after, 1000).join();
                    page.entries().stream().filter(e -> e.id().fileId() == f.fileId()).forEach(out::add);
                    after = page.next();
                } while (after.isPresent());
            }
        }
        return out;
    }
}
