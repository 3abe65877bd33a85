package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.internal.RatisCatalogServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A five-peer group keeps committing with two peers down (a majority of three remains), and the
 * survivors hold the same state.
 */
@Timeout(180)
class FivePeerGroupTest {
    private static final FileLayout LAYOUT = new FileLayout(4, 2, 65536);

    @TempDir
    Path dir;
    private final List<CatalogServer> servers = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (CatalogServer s : servers) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static void put(Catalog catalog, int from, int to) throws Exception {
        List<CompletableFuture<PutResult>> pending = new ArrayList<>();
        for (int n = from; n < to; n++) {
            pending.add(catalog.putObjectVersion(PutObjectVersion.of("five", "k" + n, "e", ObjectMetadata.EMPTY,
                    new FileRef(1, n, 1, LAYOUT, List.of()))));
        }
        for (CompletableFuture<PutResult> f : pending) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void majorityOfFiveKeepsCommitting() throws Exception {
        String spec = CatalogTestPeers.peersSpec(FreePorts.loopback(5));
        for (int i = 0; i < 5; i++) {
            servers.add(RatisCatalogServer.start(CatalogTestPeers.config("p" + (i + 1), spec, dir.resolve("p" + (i + 1)),
                    1000), new SimpleMeterRegistry()));
        }
        CatalogConfig clientConfig = CatalogTestPeers.config("p1", spec, dir.resolve("client"), 1000);
        try (Catalog catalog = RatisCatalogServer.connect(clientConfig, new SimpleMeterRegistry())) {
            catalog.createBucket("five", "AK", false).get(60, TimeUnit.SECONDS);
            put(catalog, 0, 50);
            // Stop p4 and p5; when one of them led, the other three elect a new leader.
            for (int i = 3; i < 5; i++) {
                servers.get(i).close();
                servers.set(i, null);
            }
            put(catalog, 50, 100);
            assertThat(catalog.listObjects(ListObjectsQuery.of("five", "", 1000)).get(30, TimeUnit.SECONDS).objects())
                    .hasSize(100);
            long[] first = null;
            for (int round = 0; round < 100; round++) {
                long[][] sums = new long[3][];
                for (int i = 0; i < 3; i++) {
                    sums[i] = RatisCatalogServer.stateChecksum(catalog, "p" + (i + 1), 0).get(10, TimeUnit.SECONDS);
                }
                if (sums[0][0] == sums[1][0] && sums[1][0] == sums[2][0]) {
                    assertThat(sums[1][1]).isEqualTo(sums[0][1]);
                    assertThat(sums[2][1]).isEqualTo(sums[0][1]);
                    first = sums[0];
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(first).as("the three survivors converge").isNotNull();
            assertThat(catalog.getObjectVersion("five", "k99", Optional.empty()).get(30, TimeUnit.SECONDS).etag())
                    .isEqualTo("e");
        }
    }
}
