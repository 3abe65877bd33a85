package io.shardvault.coordinator.data;

import io.shardvault.coordinator.testing.MiniCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static io.shardvault.coordinator.data.DataPathTesting.randomBytes;
import static io.shardvault.coordinator.data.DataPathTesting.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PUT latency with the stash on and off, pods on the SIMULATED 7,200 RPM disk (a benchmark
 * setting): p50 and p99 of sequential writes of 256 KiB and 1 MiB through the data paths of a
 * 20-pod (16+4) vault with 2 stash servers, all in this JVM. Skipped unless {@code -Dbench=true}:
 * <pre>
 * ./mvnw -B -pl coordinator -am verify -Dtest=PutLatencyBenchmarkTest -Dbench=true \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Timeout(1800)
class PutLatencyBenchmarkTest {
    private static final Logger LOG = LoggerFactory.getLogger(PutLatencyBenchmarkTest.class);

    @Test
    void putLatencyStashOnAndOff(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("bench"), "a benchmark: run with -Dbench=true");
        int puts = Integer.getInteger("bench.puts", 200);
        Random random = new Random(42);
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.simulatedHdd.tomes", System.getProperty("bench.simulatedHdd", "all")));
        MiniCluster.runWithNewCluster(dir, options, cluster -> {
            DataPath stashOn = cluster.newDataPath(options.dataPath());
            DataPath stashOff = cluster.newDataPath(options.dataPath().withStashThreshold(0));
            StringBuilder report = new StringBuilder(String.format(
                    "PUT latency, %d sequential PUTs each, 16+4, 20 pods (simulated HDD tomes: %s), 2 stash servers%n",
                    puts, System.getProperty("bench.simulatedHdd", "all")));
            for (int size : new int[] {256 * 1024, 1 << 20}) {
                byte[] data = randomBytes(random, size);
                double[] on = measure(stashOn, data, puts, true);
                double[] off = measure(stashOff, data, puts, false);
                report.append(String.format("  %4d KiB  stash on: p50 %6.2f ms  p99 %6.2f ms | stash off: p50 %6.2f ms"
                                + "  p99 %6.2f ms | off/on: p50 %.2fx  p99 %.2fx%n", size / 1024, on[0], on[1], off[0],
                        off[1], off[0] / on[0], off[1] / on[1]));
            }
            LOG.info("\n{}", report);
        });
    }

    private static double[] measure(DataPath path, byte[] data, int puts, boolean expectStashed) throws Exception {
        for (int i = 0; i < 20; i++) {
            write(path, data);
        }
        long[] nanos = new long[puts];
        for (int i = 0; i < puts; i++) {
            long start = System.nanoTime();
            StoredFile f = write(path, data);
            nanos[i] = System.nanoTime() - start;
            assertThat(f.stashed()).isEqualTo(expectStashed);
        }
        Arrays.sort(nanos);
        return new double[] {nanos[puts / 2] / 1e6, nanos[(int) Math.ceil(puts * 0.99) - 1] / 1e6};
    }
}
