package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three in-process peers with frequent snapshots and small log segments: a peer is stopped and its
 * data directory wiped, the others go on (snapshotting and purging their logs), and the wiped peer,
 * restarted empty, catches up by snapshot install. Then every peer holds the same state, by
 * checksum over the RocksDB contents.
 */
@Timeout(180)
class SnapshotCatchUpTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @TempDir
    Path dir;
    private final CatalogServer[] servers = new CatalogServer[3];
    private String spec;

    private CatalogServer start(int i) throws Exception {
        Map<String, Object> m = CatalogTestPeers.settings("p" + (i + 1), spec, dir.resolve("p" + (i + 1)), 100);
        m.put(CatalogConfigKeys.LOG_SEGMENT_BYTES.name(), 64 * 1024);
        return RatisCatalogServer.start(CatalogConfig.from(Settings.of(m)), new SimpleMeterRegistry());
    }

    @AfterEach
    void stopAll() throws Exception {
        for (CatalogServer s : servers) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static void putMany(Catalog catalog, int from, int to) throws Exception {
        List<CompletableFuture<PutResult>> pending = new ArrayList<>();
        String pad = "x".repeat(400);
        for (int n = from; n < to; n++) {
            ObjectMetadata md = new ObjectMetadata("application/octet-stream", Map.of(), Map.of("pad", pad), Map.of(), "");
            pending.add(catalog.putObjectVersion(PutObjectVersion.of("snap", "key-" + n, "e" + n, md,
                    new FileRef(1, n, 10, LAYOUT, List.of()))));
            if (pending.size() >= 64) {
                for (CompletableFuture<PutResult> f : pending) {
                    f.get(30, TimeUnit.SECONDS);
                }
                pending.clear();
            }
        }
        for (CompletableFuture<PutResult> f : pending) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void wipedPeerCatchesUpBySnapshot() throws Exception {
        spec = CatalogTestPeers.peersSpec(FreePorts.loopback(3));
        for (int i = 0; i < 3; i++) {
            servers[i] = start(i);
        }
        Catalog catalog = servers[0].catalog();
        catalog.createBucket("snap", "AK", false).get(60, TimeUnit.SECONDS);
        // Accounts and restricted keys travel in the snapshot too (compared by the checksum below).
        catalog.createAccount("snap-owner").get(60, TimeUnit.SECONDS);
        catalog.createAccessKey("snap-owner", false, Optional.of("snap"), true).get(60, TimeUnit.SECONDS);
        putMany(catalog, 0, 100);

        int victim = servers[2].isLeader() ? 1 : 2;
        servers[victim].close();
        servers[victim] = null;
        Path wiped = dir.resolve("p" + (victim + 1));
        deleteTree(wiped);

        putMany(catalog, 100, 1200);
        servers[victim] = start(victim);
        CatalogFailoverTest.assertSameState(catalog);

        Path sm;
        try (Stream<Path> s = Files.walk(wiped.resolve("ratis"))) {
            sm = s.filter(p -> p.getFileName().toString().startsWith("snapshot.")).findFirst().orElse(null);
        }
        assertThat(sm).as("the wiped peer received a snapshot").isNotNull();
        assertThat(catalog.getObjectVersion("snap", "key-1199", Optional.empty()).get(30, TimeUnit.SECONDS).etag())
                .isEqualTo("e1199");
    }

    private static void deleteTree(Path p) throws Exception {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
