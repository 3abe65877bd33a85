package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three peers, each a real child JVM on loopback, under steady writes from 16 concurrent clients:
 * kill -9 the leader, keep writing through the election, then check that every acknowledged
 * write is present exactly once (versioning is on, so a write applied twice would show as two
 * versions), bring the dead peer back on its data directory, and check that all three peers reach
 * the same applied index with the same state checksum.
 */
@Timeout(240)
class CatalogFailoverTest {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogFailoverTest.class);
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @TempDir
    Path dir;
    private final Process[] peers = new Process[3];
    private String spec;

    private Process launch(int i) throws Exception {
        Path data = dir.resolve("p" + (i + 1));
        Files.createDirectories(data);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path")));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.addAll(List.of(CatalogPeerMain.class.getName(), "p" + (i + 1), spec, data.toString(), "200",
                dir.resolve("role-p" + (i + 1)).toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("p" + (i + 1) + ".log").toFile()).start();
    }

    @AfterEach
    void killAll() {
        for (Process p : peers) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }

    private int leader() throws Exception {
        for (int round = 0; round < 300; round++) {
            for (int i = 0; i < 3; i++) {
                Path role = dir.resolve("role-p" + (i + 1));
                if (peers[i].isAlive() && Files.exists(role)
                        && Files.readString(role, StandardCharsets.UTF_8).equals("leader")) {
                    return i;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no leader");
    }

    @Test
    void killedLeaderLosesNoAcknowledgedWrite() throws Exception {
        spec = CatalogTestPeers.peersSpec(FreePorts.loopback(3));
        for (int i = 0; i < 3; i++) {
            peers[i] = launch(i);
        }
        CatalogConfig clientConfig = CatalogTestPeers.config("p1", spec, dir.resolve("client"), 200);
        try (Catalog catalog = RatisCatalogServer.connect(clientConfig, new SimpleMeterRegistry())) {
            catalog.createBucket("failover", "AK", false).get(60, TimeUnit.SECONDS);
            catalog.setVersioning("failover", VersioningState.ENABLED).get(30, TimeUnit.SECONDS);

            Set<String> acked = ConcurrentHashMap.newKeySet();
            AtomicInteger failed = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 16; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    for (int n = 0; !stop.get(); n++) {
                        String key = "w" + writer + "/k" + n;
                        FileRef f = new FileRef(1, writer * 1_000_000L + n, 10, LAYOUT, List.of());
                        try {
                            catalog.putObjectVersion(PutObjectVersion.of("failover", key, "e", ObjectMetadata.EMPTY, f))
                                    .get(30, TimeUnit.SECONDS);
                            acked.add(key);
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                    }
                }, "writer-" + w);
                t.setDaemon(true);
                t.start();
                writers.add(t);
            }
            int victim;
            int before;
            try {
                Thread.sleep(3000);
                victim = leader();
                before = acked.size();
                LOG.info("killing leader p{} (SIGKILL) after {} acknowledged writes", victim + 1, before);
                peers[victim].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                Thread.sleep(6000);
            } finally {
                stop.set(true);
            }
            for (Thread t : writers) {
                t.join(60_000);
                assertThat(t.isAlive()).as(t.getName() + " stopped").isFalse();
            }
            LOG.info("{} writes acknowledged ({} after the kill), {} failed", acked.size(), acked.size() - before,
                    failed.get());
            assertThat(acked.size()).as("writes continued after the election").isGreaterThan(before);

            Map<String, Integer> versions = new HashMap<>();
            String km = "";
            String vm = "";
            while (true) {
                VersionListing page = catalog.listObjectVersions(
                        new ListVersionsQuery("failover", "", "", km, vm, 1000)).get(30, TimeUnit.SECONDS);
                for (ObjectVersion v : page.versions()) {
                    versions.merge(v.key(), 1, Integer::sum);
                }
                if (!page.truncated()) {
                    break;
                }
                km = page.nextKeyMarker();
                vm = page.nextVersionIdMarker();
            }
            for (String key : acked) {
                assertThat(versions.get(key)).as("versions of acknowledged " + key).isEqualTo(1);
            }
            assertThat(versions.values()).as("no write applied twice").allMatch(c -> c == 1);

            peers[victim] = launch(victim);
            catalog.putObjectVersion(PutObjectVersion.of("failover", "after-restart", "e", ObjectMetadata.EMPTY,
                    new FileRef(1, 99_999_999L, 1, LAYOUT, List.of()))).get(30, TimeUnit.SECONDS);
            assertSameState(catalog);
        }
    }

    /** Polls every peer until all report the same applied index and checksum. */
    static void assertSameState(Catalog catalog) throws Exception {
        long[][] last = new long[3][];
        for (int round = 0; round < 200; round++) {
            boolean same = true;
            for (int i = 0; i < 3; i++) {
                try {
                    last[i] = RatisCatalogServer.stateChecksum(catalog, "p" + (i + 1), 0).get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    last[i] = null;
                }
                same &= last[i] != null && last[0] != null && last[i][0] == last[0][0] && last[i][1] == last[0][1];
            }
            if (same) {
                LOG.info("all peers at index {} with checksum {}", last[0][0], Long.toHexString(last[0][1]));
                return;
            }
            Thread.sleep(250);
        }
        StringBuilder sb = new StringBuilder();
        for (long[] l : last) {
            sb.append(l == null ? "unreachable" : l[0] + "/" + Long.toHexString(l[1])).append(File.pathSeparator);
        }
        throw new AssertionError("peers never converged: " + sb);
    }
}
