package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.shardvault.coordinator.data.DataPathTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slow pod slows the body's producer: the write pulls at most the in-flight window of stripes
 * ahead of what every pod has answered, however large the body. A pod slower than the straggler
 * grace is instead left behind: recorded missing for the file, and sent no more of its stripes.
 */
@Timeout(300)
class WriteBackpressureTest {
    private static final Logger LOG = LoggerFactory.getLogger(WriteBackpressureTest.class);
    private static final int SLOW = 11;
    private static final int PIECE = 64 * 1024;

    @Test
    void aSlowPodHoldsTheBodyBack(@TempDir Path dir) throws Exception {
        MiniCluster.runWithNewCluster(dir, MiniCluster.Options.defaults(), cluster -> {
            try (DelayingProxy proxy = new DelayingProxy(cluster.transport(), cluster.podAddress(SLOW))) {
                List<InetSocketAddress> pods = new ArrayList<>(cluster.vault().pods());
                pods.set(SLOW, proxy.address());
                Vault slowVault = new Vault(cluster.vault().vaultId(), cluster.vault().layout(), pods);
                // The vault's own layout: 24 stripes of 1 MiB, 4 in flight.
                DataPath path = cluster.newDataPath(DataPathConfig.from(io.shardvault.common.config.Settings.of(
                        java.util.Map.of("data.rpc.timeout", "30s", "data.write.stragglerGrace", "5s",
                                "data.write.largeFileChunkBytes", "0"))),
                        cluster.fileIds(), slowVault);
                proxy.delay(Duration.ofMillis(400));
                int stripeBytes = slowVault.layout().stripeBytes();
                long size = 24L * stripeBytes;
                assertHeldBack(path, size, stripeBytes, 4);

                // Large-file stripes (4 x 256 KiB x 16 = 4 MiB): the window keeps about the bytes of 4 vault
                // stripes but at least 2 stripes, so 2 of them, not 4 (16 MiB).
                DataPath large = cluster.newDataPath(DataPathConfig.from(io.shardvault.common.config.Settings.of(
                        java.util.Map.of("data.rpc.timeout", "30s", "data.write.stragglerGrace", "5s"))),
                        cluster.fileIds(), slowVault);
                StoredFile file = assertHeldBack(large, size, 4 * stripeBytes, 2);
                assertThat(file.layout().chunkBytes()).isEqualTo(256 * 1024);

                // Slower than the grace (default 200 ms): the pod is left behind, the write is not held up.
                DataPath impatient = cluster.newDataPath(DataPathConfig.defaults()
                        .withRpcTimeout(Duration.ofSeconds(30)), cluster.fileIds(), slowVault);
                proxy.delay(Duration.ofSeconds(2));
                long start = System.nanoTime();
                StoredFile left = impatient.write(patterned(size, new AtomicLong())).get(120, TimeUnit.SECONDS);
                long millis = (System.nanoTime() - start) / 1_000_000;
                LOG.info("24 stripes past a pod answering in 2 s took {} ms", millis);
                assertThat(left.missingShards()).containsExactly(SLOW);
                assertThat(millis).isLessThan(6 * 2000);
            }
        });
    }

    /**
     * Writes {@code size} bytes past the slow pod: while it holds the first stripes, at most
     * {@code window} stripes of {@code stripeBytes} (and one body piece) are pulled, and the write
     * takes a round of the delay per window of stripes. Reads a range back.
     */
    private static StoredFile assertHeldBack(DataPath path, long size, int stripeBytes, int window)
            throws Exception {
        AtomicLong pulled = new AtomicLong();
        long start = System.nanoTime();
        CompletableFuture<StoredFile> write = path.write(patterned(size, pulled));
        Thread.sleep(300);
        long early = pulled.get();
        LOG.info("pulled {} bytes ({} stripes) while the slow pod held the first stripe", early,
                (double) early / stripeBytes);
        // The window, and for a loose bound the stripe being filled.
        assertThat(early).isLessThanOrEqualTo((window + 1L) * stripeBytes + PIECE);
        StoredFile file = write.get(120, TimeUnit.SECONDS);
        long stripes = size / stripeBytes;
        long millis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("{} stripes past a pod answering in 400 ms took {} ms", stripes, millis);
        // Each window of stripes waits 400 ms for the slow pod.
        assertThat(millis).isGreaterThanOrEqualTo(stripes / window * 400 - 100);
        assertThat(file.missingShards()).isEmpty();
        long from = size / 2 - 5;
        byte[] back = read(path, file, from, 10);
        for (int i = 0; i < back.length; i++) {
            assertThat(back[i]).isEqualTo((byte) ((from + i) * 31 / 7));
        }
        return file;
    }

    /** {@code size} bytes of a pattern, 64 KiB per read, counting what was pulled. */
    private static ByteSource patterned(long size, AtomicLong pulled) {
        return new ByteSource() {
            @Override
            public long length() {
                return size;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                long at = pulled.get();
                if (at == size) {
                    return CompletableFuture.completedFuture(null);
                }
                int n = (int) Math.min(PIECE, size - at);
                byte[] bytes = new byte[n];
                for (int i = 0; i < n; i++) {
                    bytes[i] = (byte) ((at + i) * 31 / 7);
                }
                pulled.addAndGet(n);
                return CompletableFuture.completedFuture(Unpooled.wrappedBuffer(bytes));
            }
        };
    }
}
