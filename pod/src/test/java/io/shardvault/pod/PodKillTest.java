package io.shardvault.pod;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.HostPort;
import io.shardvault.common.config.Settings;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 of a real pod process (a child JVM running {@link PodMain}) in the middle of a stream of
 * buffered writes, with a real stash in this JVM. The kill loses nothing the page cache holds, so
 * after it the test also throws away a seeded share of the still-stashed shards' files (deleting
 * some, truncating others), as losing the host would. The restarted pod must restore every
 * acknowledged shard bit-exact and leave the stash empty.
 */
@Timeout(240)
class PodKillTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodKillTest.class);

    @TempDir
    Path dir;

    private static ChildJvm startPod(Map<String, Object> settings) throws IOException {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, Object> e : settings.entrySet()) {
            args.add("--set");
            args.add(e.getKey() + "=" + e.getValue());
        }
        return ChildJvm.builder(PodMain.class).name("pod").jvmArgs("-Xmx256m").args(args).start();
    }

    /** The started pod's address, once it listens. */
    private static InetSocketAddress listening(ChildJvm child) throws InterruptedException, TimeoutException {
        return HostPort.parse(child.awaitLine("pod p3 listening ", Duration.ofSeconds(90)));
    }

    @Test
    void killMinus9MidStreamLosesNoAcknowledgedShard() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            Map<String, Object> settings = f.podSettings("150ms");
            ChildJvm child = startPod(settings);
            Map<ShardId, byte[]> acked = new ConcurrentHashMap<>();
            try {
                InetSocketAddress pod = listening(child);
                // The pod's only source of its slot and stash: the restart below recovers from what it persisted.
                f.assign(pod);
                int writers = 2;
                int killAfter = 100 + random.nextInt(150);
                AtomicInteger done = new AtomicInteger();
                AtomicInteger nextFile = new AtomicInteger();
                CountDownLatch enough = new CountDownLatch(1);
                CountDownLatch stopped = new CountDownLatch(writers);
                for (int w = 0; w < writers; w++) {
                    Random local = new Random(seed + w);
                    Thread t = new Thread(() -> {
                        try {
                            while (true) {
                                ShardId id = new ShardId(StashFaultFixture.VAULT, nextFile.getAndIncrement(),
                                        StashFaultFixture.SHARD);
                                byte[] data = new byte[1 + local.nextInt(64 << 10)];
                                local.nextBytes(data);
                                f.write(pod, id, data);
                                acked.put(id, data);
                                if (done.incrementAndGet() >= killAfter) {
                                    enough.countDown();
                                }
                            }
                        } catch (RuntimeException expected) {
                            // the pod died under this write: it was never acknowledged
                        } finally {
                            stopped.countDown();
                        }
                    }, "writer-" + w);
                    t.setDaemon(true);
                    t.start();
                }
                assertThat(enough.await(120, TimeUnit.SECONDS)).as("writes before the kill").isTrue();
                child.kill9();
                assertThat(stopped.await(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                child.kill9();
            }
            PodConfig config = f.podConfig("150ms");
            Set<ShardId> stashed = new HashSet<>(f.stashed());
            int damaged = 0;
            // Lose the page cache of a share of the still-stashed (unflushed) shards.
            for (ShardId id : acked.keySet()) {
                if (!stashed.contains(id) || random.nextInt(3) != 0) {
                    continue;
                }
                Path file = shardPath(config, id);
                if (!Files.exists(file)) {
                    continue;
                }
                if (random.nextBoolean()) {
                    Files.delete(file);
                } else {
                    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                        raf.setLength(Math.max(0, raf.length() - 1 - random.nextInt(100)));
                    }
                }
                damaged++;
            }
            LOG.info("killed after {} acknowledged writes; {} still stashed; {} of their files damaged", acked.size(),
                    stashed.size(), damaged);
            try (PodServer restarted = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry())) {
                for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                    assertThat(f.read(restarted.localAddress(), e.getKey(), e.getValue().length))
                            .as("shard %s", e.getKey()).isEqualTo(e.getValue());
                }
                StashFaultFixture.await("the stash copies purged", () -> f.stashed().isEmpty());
            }
        }
    }

    /**
     * kill -9 of a pod process with shard files open for reads ({@code pod.read.openShardFiles}, fewer than
     * the shards, so entries are also evicted and opened again): shards read after every write, buffered
     * ones, durable ones of two stripes (an append), durable ones deleted and some written again under the
     * same id. The restarted pod reads every acknowledged byte back, and none of a shard deleted last.
     */
    @Test
    void killMinus9WithShardFilesOpenForReadsLosesNoAcknowledgedByte() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        try (StashFaultFixture f = new StashFaultFixture(dir)) {
            Map<String, Object> settings = f.podSettings("150ms");
            settings.put("pod.read.openShardFiles", "8");
            Map<ShardId, byte[]> acked = new HashMap<>();
            Set<ShardId> deleted = new HashSet<>();
            ChildJvm child = startPod(settings);
            try {
                InetSocketAddress pod = listening(child);
                f.assign(pod);
                for (int i = 0; i < 60; i++) {
                    ShardId id = new ShardId(StashFaultFixture.VAULT, i, StashFaultFixture.SHARD);
                    byte[] a = bytes(random, 1 + random.nextInt(32 << 10));
                    switch (i % 3) {
                        case 0 -> f.write(pod, id, a);
                        case 1 -> {
                            f.writeDurable(pod, id, 0, a);
                            assertThat(f.read(pod, id, a.length)).isEqualTo(a);
                            byte[] b = bytes(random, 1 + random.nextInt(32 << 10));
                            f.writeDurable(pod, id, a.length, b);
                            a = concat(a, b);
                        }
                        default -> {
                            f.writeDurable(pod, id, 0, a);
                            assertThat(f.read(pod, id, a.length)).isEqualTo(a);
                            f.podClient.delete(pod, id).join();
                            assertThat(readCode(f, pod, id)).isEqualTo(ErrorCode.NOT_FOUND);
                            if (random.nextBoolean()) {
                                deleted.add(id);
                                continue;
                            }
                            a = bytes(random, 1 + random.nextInt(32 << 10));
                            f.writeDurable(pod, id, 0, a);
                        }
                    }
                    acked.put(id, a);
                    assertThat(f.read(pod, id, a.length)).as("shard %s", id).isEqualTo(a);
                    ShardId again = new ShardId(StashFaultFixture.VAULT, random.nextInt(i + 1), StashFaultFixture.SHARD);
                    if (acked.containsKey(again)) {
                        assertThat(f.read(pod, again, acked.get(again).length)).as("shard %s", again)
                                .isEqualTo(acked.get(again));
                    }
                }
            } finally {
                child.kill9();
            }
            LOG.info("killed with {} shards acknowledged, {} deleted", acked.size(), deleted.size());
            PodConfig config = PodConfig.from(Settings.of(settings));
            try (PodServer restarted = PodServer.start(f.transport, config, f.rpc, new SimpleMeterRegistry())) {
                for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                    assertThat(f.read(restarted.localAddress(), e.getKey(), e.getValue().length))
                            .as("shard %s", e.getKey()).isEqualTo(e.getValue());
                }
                for (ShardId id : deleted) {
                    assertThat(readCode(f, restarted.localAddress(), id)).as("shard %s", id)
                            .isEqualTo(ErrorCode.NOT_FOUND);
                }
                StashFaultFixture.await("the stash copies purged", () -> f.stashed().isEmpty());
            }
        }
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] out = Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }

    /** The code a read of the shard fails with; fails the test if it succeeds. */
    private static ErrorCode readCode(StashFaultFixture f, InetSocketAddress pod, ShardId id) {
        try {
            f.podClient.read(pod, id, 0, 1).join().release();
        } catch (RuntimeException e) {
            return RpcException.from(e).code();
        }
        throw new AssertionError("shard " + id + " read back");
    }

    /** Where the pod keeps a shard: the same placement the pod computes. */
    private static Path shardPath(PodConfig config, ShardId id) throws IOException {
        List<io.shardvault.pod.internal.Tome> tomes = new ArrayList<>();
        for (int i = 0; i < config.tomes().size(); i++) {
            tomes.add(new io.shardvault.pod.internal.Tome(i, config.tomes().get(i).directory(),
                    io.shardvault.pod.internal.DirectTomeIo.INSTANCE));
        }
        try {
            return new io.shardvault.pod.internal.ShardStore(tomes).pathOf(id);
        } finally {
            tomes.forEach(io.shardvault.pod.internal.Tome::close);
        }
    }
}
