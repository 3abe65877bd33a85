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
    /** File ids of the probes, far above the cluster's own. */
    private static final java.util.concurrent.atomic.AtomicLong PROBE_IDS = new java.util.concurrent.atomic.AtomicLong(1L << 40);

    @Test
    void putLatencyStashOnAndOff(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("bench"), "a benchmark: run with -Dbench=true");
        int puts = Integer.getInteger("bench.puts", 200);
        Random random = new Random(42);
        MiniCluster.Options options = MiniCluster.Options.defaults()
                .withPodSettings(Map.of("pod.simulatedHdd.tomes", System.getProperty("bench.simulatedHdd", "all"),
                        "pod.flush.interval", System.getProperty("bench.flushInterval", "50ms")));
        MiniCluster.runWithNewCluster(dir, options, cluster -> {
            DataPath stashOn = cluster.newDataPath(options.dataPath());
            DataPath stashOff = cluster.newDataPath(options.dataPath().withStashThreshold(0));
            StringBuilder report = new StringBuilder(String.format(
                    "PUT latency, %d sequential PUTs each, 16+4, 20 pods (simulated HDD tomes: %s, flush interval %s),"
                            + " 2 stash servers%n", puts, System.getProperty("bench.simulatedHdd", "all"),
                    System.getProperty("bench.flushInterval", "50ms")));
            // Warm both paths (JIT, connections, RocksDB) before any timed cell, so cell order does not matter.
            byte[] warm = randomBytes(random, 256 * 1024);
            for (int i = 0; i < 100; i++) {
                write(stashOn, warm);
                write(stashOff, warm);
            }
            for (int size : new int[] {256 * 1024, 1 << 20}) {
                byte[] data = randomBytes(random, size);
                double[] on = measure(stashOn, data, puts, true);
                double[] off = measure(stashOff, data, puts, false);
                double[] stashAlone = fanOut(cluster, size, puts, true);
                double[] podsBuffered = fanOut(cluster, size, puts, false);
                report.append(String.format("  %4d KiB  parts of stash mode alone: 20 stash puts p50 %6.2f ms p99 %6.2f ms"
                        + " | 20 buffered pod writes p50 %6.2f ms p99 %6.2f ms%n", size / 1024, stashAlone[0],
                        stashAlone[1], podsBuffered[0], podsBuffered[1]));
                report.append(String.format("  %4d KiB  stash on: p50 %6.2f ms  p99 %6.2f ms | stash off: p50 %6.2f ms"
                                + "  p99 %6.2f ms | off/on: p50 %.2fx  p99 %.2fx%n", size / 1024, on[0], on[1], off[0],
                        off[1], off[0] / on[0], off[1] / on[1]));
            }
            LOG.info("\n{}", report);
        });
    }

    /** The n chunk calls of one stash-mode write, one side only: all stash puts, or all buffered pod writes. */
    private static double[] fanOut(MiniCluster cluster, int size, int rounds, boolean stash) throws Exception {
        io.shardvault.common.rpc.RpcClient rpc = io.shardvault.common.rpc.RpcClient.create(cluster.transport(),
                io.shardvault.common.rpc.RpcClientConfig.defaults());
        try {
            io.shardvault.stash.api.StashClient stashClient = new io.shardvault.stash.api.StashClient(rpc);
            io.shardvault.pod.api.PodClient podClient = new io.shardvault.pod.api.PodClient(rpc);
            io.shardvault.stash.api.StashPlacement placement =
                    new io.shardvault.stash.api.StashPlacement(cluster.stashAddresses());
            VaultLayout layout = cluster.vault().layout();
            int chunk = layout.chunkLength(size, 0);
            byte[] bytes = new byte[chunk];
            new Random(7).nextBytes(bytes);
            int crc = io.shardvault.common.crc.Crc32c.of(bytes);
            long[] nanos = new long[rounds];
            for (int r = -20; r < rounds; r++) {
                long fileId = PROBE_IDS.getAndIncrement();
                java.util.List<java.util.concurrent.CompletableFuture<Void>> calls = new java.util.ArrayList<>();
                long start = System.nanoTime();
                for (int i = 0; i < layout.n(); i++) {
                    io.shardvault.common.ShardId id = new io.shardvault.common.ShardId(MiniCluster.VAULT_ID, fileId, i);
                    calls.add(stash
                            ? stashClient.put(placement.serverFor(MiniCluster.VAULT_ID, i), id, 0, crc,
                                    io.netty.buffer.Unpooled.wrappedBuffer(bytes))
                            : podClient.write(cluster.podAddress(i), id, 0, crc, io.shardvault.pod.api.WriteMode.BUFFERED,
                                    io.netty.buffer.Unpooled.wrappedBuffer(bytes)));
                }
                java.util.concurrent.CompletableFuture.allOf(calls.toArray(java.util.concurrent.CompletableFuture[]::new))
                        .join();
                if (r >= 0) {
                    nanos[r] = System.nanoTime() - start;
                }
            }
            Arrays.sort(nanos);
            return new double[] {nanos[rounds / 2] / 1e6, nanos[(int) Math.ceil(rounds * 0.99) - 1] / 1e6};
        } finally {
            rpc.close();
        }
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
