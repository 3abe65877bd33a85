package io.shardvault.coordinator.data;

import io.shardvault.coordinator.testing.DelayingProxy;
import io.shardvault.coordinator.testing.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.read;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slow pod (behind a proxy that holds each request for 10 s) does not hold reads up: after the
 * hedge delay, parity is read instead and decoded.
 */
@Timeout(300)
class HedgedReadTest {
    private static final Logger LOG = LoggerFactory.getLogger(HedgedReadTest.class);
    private static final int SLOW = 4;

    @Test
    void aSlowPodIsHedgedAround(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        Random random = new Random(seed);
        MiniCluster.runWithNewCluster(dir, MiniCluster.Options.defaults(), cluster -> {
            try (DelayingProxy proxy = new DelayingProxy(cluster.transport(), cluster.podAddress(SLOW))) {
                List<InetSocketAddress> pods = new ArrayList<>(cluster.vault().pods());
                pods.set(SLOW, proxy.address());
                Vault slowVault = new Vault(cluster.vault().vaultId(), cluster.vault().layout(), pods);
                DataPathConfig config = DataPathConfig.from(io.shardvault.common.config.Settings.of(java.util.Map.of(
                        "data.rpc.timeout", "30s", "data.read.hedge.max", "500ms")));
                DataPath path = cluster.newDataPath(config, cluster.fileIds(), slowVault);
                byte[] small = randomBytes(random, 300 * 1024);
                byte[] large = randomBytes(random, 3 * (1 << 20) + 99);
                StoredFile smallFile = write(path, small);
                StoredFile largeFile = write(path, large);
                for (int i = 0; i < 20; i++) {
                    read(path, smallFile, 0, 1000); // observed latency for the hedge delay
                }

                proxy.delay(Duration.ofSeconds(10));
                long start = System.nanoTime();
                assertThat(read(path, largeFile)).isEqualTo(large);
                assertThat(read(path, smallFile)).isEqualTo(small);
                long millis = (System.nanoTime() - start) / 1_000_000;
                LOG.info("two reads past a pod answering in 10 s took {} ms", millis);
                assertThat(millis).as("reads waited for the slow pod").isLessThan(5_000);
                assertThat(cluster.metrics().counter("shardvault.data.read.hedges").count()).isPositive();
            }
        });
    }
}
