package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.config.Settings;
import io.shardvault.coordinator.testing.DelayingProxy;
import io.shardvault.coordinator.testing.MiniCluster;
import io.shardvault.pod.api.PodOps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A file's shards are deleted only after every shard write sent for it has answered: a delete that
 * overtook a straggler's write would leave that shard on its pod for good. One pod's writes are held
 * back while its deletes pass at once, the worst order the network could choose.
 */
@Timeout(180)
class StragglerDeleteTest {
    private static final int SLOW = 5;
    private static final Duration WRITE_DELAY = Duration.ofMillis(1500);

    @Test
    void aFileDeletedWhileAStragglerStillWritesLeavesNoShard(@TempDir Path dir) throws Exception {
        MiniCluster.runWithNewCluster(dir, MiniCluster.Options.defaults(), cluster -> {
            try (DelayingProxy proxy = slowWrites(cluster)) {
                // The default straggler grace (200 ms): the write completes without the slow pod.
                DataPath path = cluster.newDataPath(DataPathConfig.defaults().withRpcTimeout(Duration.ofSeconds(30)),
                        cluster.fileIds(), vaultThrough(cluster, proxy));
                int stripeBytes = cluster.vault().layout().stripeBytes();
                StoredFile file = path.write(body(2L * stripeBytes, Long.MAX_VALUE)).get(60, TimeUnit.SECONDS);
                assertThat(file.missingShards()).containsExactly(SLOW);
                path.delete(file).get(60, TimeUnit.SECONDS);
                awaitNoShardFiles(dir);
            }
        });
    }

    @Test
    void aWriteThatFailsWhileStripesAreInFlightLeavesNoShard(@TempDir Path dir) throws Exception {
        MiniCluster.runWithNewCluster(dir, MiniCluster.Options.defaults(), cluster -> {
            try (DelayingProxy proxy = slowWrites(cluster)) {
                // A grace longer than the delay: the stripes wait for the slow pod, in flight when the body fails.
                DataPath path = cluster.newDataPath(DataPathConfig.from(Settings.of(Map.of("data.rpc.timeout", "30s",
                        "data.write.stragglerGrace", "10s"))), cluster.fileIds(), vaultThrough(cluster, proxy));
                int stripeBytes = cluster.vault().layout().stripeBytes();
                CompletableFuture<StoredFile> write = path.write(body(4L * stripeBytes, 2L * stripeBytes + 1));
                assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasRootCauseMessage("the client went away");
                awaitNoShardFiles(dir);
            }
        });
    }

    private static DelayingProxy slowWrites(MiniCluster cluster) throws IOException {
        DelayingProxy proxy = new DelayingProxy(cluster.transport(), cluster.podAddress(SLOW));
        proxy.delay(WRITE_DELAY);
        proxy.delayOnly(PodOps.WRITE);
        return proxy;
    }

    private static Vault vaultThrough(MiniCluster cluster, DelayingProxy proxy) {
        List<InetSocketAddress> pods = new ArrayList<>(cluster.vault().pods());
        pods.set(SLOW, proxy.address());
        return new Vault(cluster.vault().vaultId(), cluster.vault().layout(), pods);
    }

    /** {@code size} bytes, 64 KiB per read; the read that would pass {@code failAt} bytes fails instead. */
    private static ByteSource body(long size, long failAt) {
        return new ByteSource() {
            private long at;

            @Override
            public long length() {
                return size;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (at == size) {
                    return CompletableFuture.completedFuture(null);
                }
                int n = (int) Math.min(64 * 1024, size - at);
                if (at + n > failAt) {
                    return CompletableFuture.failedFuture(new IOException("the client went away"));
                }
                at += n;
                byte[] bytes = new byte[n];
                java.util.Arrays.fill(bytes, (byte) at);
                return CompletableFuture.completedFuture(Unpooled.wrappedBuffer(bytes));
            }
        };
    }

    /** Past the delayed writes' landing, no shard file may be left on any pod. */
    private static void awaitNoShardFiles(Path dir) throws Exception {
        long deadline = System.nanoTime() + WRITE_DELAY.multipliedBy(4).toNanos();
        long count;
        do {
            Thread.sleep(100);
            count = shardFiles(dir);
        } while (count > 0 && System.nanoTime() < deadline);
        // Stay past the delay: a late write would create its file only now.
        Thread.sleep(WRITE_DELAY.toMillis());
        assertThat(shardFiles(dir)).as("shard files left on the pods").isZero();
    }

    private static long shardFiles(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try (Stream<Path> files = Files.walk(dir)) {
                return files.filter(p -> p.getFileName().toString().endsWith(".shard")).count();
            } catch (UncheckedIOException e) {
                if (attempt == 20 || !(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
            }
        }
    }
}
