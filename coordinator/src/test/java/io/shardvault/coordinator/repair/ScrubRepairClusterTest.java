package io.shardvault.coordinator.repair;

import static io.shardvault.coordinator.testing.HealingCluster.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.ShardId;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.data.StoredFile;
import io.shardvault.coordinator.testing.HealingCluster;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrubbing end to end (issue #20, section 4) over real pods (a 16+4 MiniCluster whose pods scrub
 * in the background), a real one-peer Ratis catalog, the findings collector and the repair worker:
 * chunks rotted or cut short on disk in many shard files are found by the pods' scrubbers, queued,
 * repaired, and then every object reads back with no decode at all.
 */
@Timeout(300)
class ScrubRepairClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubRepairClusterTest.class);

    @TempDir
    Path dir;

    private HealingCluster h;
    private MiniCluster cluster;
    private Catalog catalog;
    private Random random;
    private RepairMetrics metrics;

    @BeforeEach
    void start() throws IOException {
        h = HealingCluster.start(dir, "scrubbed", MiniCluster.Options.defaults().withPodSettings(Map.of(
                "pod.scrub.bytesPerSecond", "256MiB", "pod.scrub.interval", "100ms")));
        cluster = h.cluster();
        catalog = h.catalog();
        metrics = h.repairMetrics();
        random = h.random();
    }

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    private ScrubFindingsCollector collector() {
        return h.closeLater(ScrubFindingsCollector.start(Duration.ofMillis(100), catalog, h::leads,
                h.vaults(), h.pods(), metrics, HealingCluster.CALL_TIMEOUT));
    }

    @Test
    void rottedAndCutShortShardFilesAreFoundByTheScrubbersRepairedAndThenReadWithoutDecoding() throws Exception {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        Map<String, StoredFile> files = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            objects.put("small-" + i, h.bytes(20_000 + random.nextInt(200_000)));
        }
        for (int i = 0; i < 2; i++) {
            objects.put("large-" + i, h.bytes(3 * 1024 * 1024 + random.nextInt(100_000)));
        }
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            StoredFile f = h.write(o.getKey(), o.getValue());
            assertThat(f.missingShards()).isEmpty();
            files.put(o.getKey(), f);
        }

        // Damage data shards (a read would have to decode around them): a flipped byte in most damaged
        // files, a file cut short inside its last chunk in a few, two shards of some files.
        Map<ShardId, String> damaged = new HashMap<>();
        List<String> names = new ArrayList<>(objects.keySet());
        for (int i = 0; i < names.size(); i++) {
            if (i % 3 == 2) {
                continue;
            }
            StoredFile f = files.get(names.get(i));
            int shards = i % 4 == 0 ? 2 : 1;
            int first = random.nextInt(f.layout().k() - 1);
            for (int s = first; s < first + shards; s++) {
                ShardId id = new ShardId(f.vaultId(), f.fileId(), s);
                Path file = cluster.shardFile(s, id);
                if (i % 5 == 1) {
                    cutShort(file);
                    damaged.put(id, ScrubFindingsCollector.SCRUB_MISSING);
                } else {
                    flipInFirstChunk(file, f.layout().chunkBytes());
                    damaged.put(id, ScrubFindingsCollector.SCRUB_CORRUPT);
                }
            }
        }
        LOG.info("damaged {} shard files of {} objects", damaged.size(), objects.size());

        // The pods' scrubbers find them. A coordinator that takes them and dies before queuing them
        // (no acknowledgement) loses nothing: the pods offer them again.
        PodClient pods = h.pods();
        awaitTrue("the pods' scrubbers to find every damaged shard", () -> {
            Set<ShardId> held = new HashSet<>();
            for (InetSocketAddress pod : cluster.vault().pods()) {
                pods.scrubFindings(pod, 0, 1000).join().forEach(f -> held.add(f.id()));
            }
            return held.equals(damaged.keySet());
        });
        assertThat(catalog.listRepairs(0, 0, 1000).join()).isEmpty();

        // The collector queues exactly them, each with its reason.
        collector();
        awaitTrue("every damaged shard queued", () -> queuedShards().keySet().equals(damaged.keySet()));
        assertThat(queuedShards()).containsExactlyInAnyOrderEntriesOf(damaged);
        assertThat(metrics.scrubFindingsQueued.count()).isEqualTo(damaged.size());

        h.closeLater(RepairWorker.start(RepairConfig.defaults().withPace(Duration.ofMillis(200),
                Duration.ofMillis(300)), catalog, h::leads, h.vaults(), h.data(), h.pods(), h.codecs(), metrics,
                HealingCluster.CALL_TIMEOUT));
        awaitTrue("every repair", () -> metrics.shardsRepaired.count() >= damaged.size()
                && catalog.listRepairs(0, 0, 1000).join().isEmpty());
        // The pods were told (the findings acknowledged): nothing is queued again by later passes.
        Thread.sleep(500);
        assertThat(catalog.listRepairs(0, 0, 1000).join()).isEmpty();

        // The repairs' own reads go through the same data path: count from here. A read may still decode
        // around a pod that answers late (a hedge, on a loaded machine), never around damage.
        double decodes = h.registry().get("shardvault.data.read.decodes").counter().count();
        double hedges = h.registry().get("shardvault.data.read.hedges").counter().count();
        double reports = metrics.reportsQueued.count() + metrics.reportsDuplicate.count();
        h.assertReadBack();
        assertThat(h.registry().get("shardvault.data.read.decodes").counter().count() - decodes).as("decodes")
                .isLessThanOrEqualTo(h.registry().get("shardvault.data.read.hedges").counter().count() - hedges);
        assertThat(metrics.reportsQueued.count() + metrics.reportsDuplicate.count()).as("damage found by reads")
                .isEqualTo(reports);
    }

    @Test
    void aFindingForAFileNoLongerReferencedIsDroppedNotQueued() throws Exception {
        StoredFile f = h.write("gone", h.bytes(100_000));
        catalog.deleteObject("scrubbed", "gone", Optional.empty()).join();
        ShardId id = new ShardId(f.vaultId(), f.fileId(), 2);
        flipInFirstChunk(cluster.shardFile(2, id), f.layout().chunkBytes());
        collector();
        awaitTrue("the finding dropped", () -> metrics.scrubFindingsDropped.count() >= 1);
        assertThat(catalog.listRepairs(0, 0, 100).join()).isEmpty();
        assertThat(metrics.scrubFindingsQueued.count()).isZero();
    }

    /** The repair queue as shard -> reason. */
    private Map<ShardId, String> queuedShards() {
        Map<ShardId, String> out = new TreeMap<>(ShardId.KEY_ORDER);
        for (RepairTask t : catalog.listRepairs(0, 0, 1000).join()) {
            for (int s : t.shards()) {
                out.put(new ShardId(t.vaultId(), t.fileId(), s), t.reason());
            }
        }
        return out;
    }

    /** Flips a byte inside the file's first chunk's data (after the 32-byte file and 28-byte record headers). */
    private void flipInFirstChunk(Path file, int chunkBytes) throws IOException {
        HealingCluster.flipByte(file, 60 + random.nextInt((int) Math.min(chunkBytes, Files.size(file) - 60)));
    }

    /** Cuts the file short inside its last chunk, as a lost tail would. */
    private static void cutShort(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 7);
            ch.force(true);
        }
    }
}
