package io.shardvault.pod.internal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.api.WriteMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.shardvault.pod.internal.PodTesting.assigned;
import static io.shardvault.pod.internal.PodTesting.await;
import static io.shardvault.pod.internal.PodTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Power loss and stash outages against a {@link PodNode} with crashable tomes and an in-memory
 * stash. The same scenarios run with a real stash server in {@code io.shardvault.pod.PodStashFaultTest}.
 */
@Timeout(120)
class PodNodeFaultTest {
    private static final Logger LOG = LoggerFactory.getLogger(PodNodeFaultTest.class);

    @TempDir
    Path dir;

    private PodConfig config(String flushInterval) {
        Map<String, Object> s = new HashMap<>();
        s.put("pod.name", "p3");
        s.put("pod.stateDir", dir.resolve("state").toString());
        s.put("pod.tomes", dir.resolve("t0") + "," + dir.resolve("t1"));
        s.put("pod.flush.interval", flushInterval);
        s.put("pod.purge.retry.min", "10ms");
        s.put("pod.purge.retry.max", "100ms");
        return PodConfig.from(Settings.of(s));
    }

    /** @param fileSystemSync the flusher syncs each tome's file system at once (syncfs), else each file */
    @ParameterizedTest(name = "fileSystemSync={0}")
    @ValueSource(booleans = {true, false})
    void afterAPowerLossEveryAcknowledgedShardIsRestoredBitExactThenPurged(boolean fileSystemSync) throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        InMemoryStash stash = new InMemoryStash();
        List<FaultTomeIo> disks = List.of(disk(fileSystemSync), disk(fileSystemSync));
        // No purge may reach the stash before the pod's copy is durable: checked at the moment of each purge.
        List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        PodNode[] current = new PodNode[1];
        stash.onPurge(id -> {
            try {
                Path p = current[0].pathOf(id);
                int tome = current[0].store().tomeFor(id).index();
                if (!disks.get(tome).isDurable(p)) {
                    violations.add(id.toString());
                }
            } catch (IOException e) {
                violations.add(id + ": " + e);
            }
        });
        PodConfig config = config("20ms");
        PodNode node = assigned(PodNode.open(config, disks::get, servers -> stash, new SimpleMeterRegistry(),
                Clock.systemUTC()));
        current[0] = node;
        Map<ShardId, byte[]> acked = new LinkedHashMap<>();
        int n = 300;
        int crashAfter = n / 2 + random.nextInt(n / 2);
        for (int i = 0; i < crashAfter; i++) {
            ShardId id = new ShardId(1, 1000 + i, 3);
            byte[] data = new byte[1 + random.nextInt(16 << 10)];
            random.nextBytes(data);
            stash.put(id, 0, data); // the coordinator's stash copy is synced before the write is acknowledged
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            acked.put(id, data);
            if (random.nextInt(50) == 0) {
                Thread.sleep(25); // let a flush round run now and then
            }
        }
        // The last writes are acknowledged with every sync held back, so they are certainly unflushed.
        disks.forEach(FaultTomeIo::holdSyncs);
        for (int i = 0; i < 20; i++) {
            ShardId id = new ShardId(1, 1000 + crashAfter + i, 3); // a fan-out directory that exists: no sync needed
            byte[] data = new byte[1 + random.nextInt(16 << 10)];
            random.nextBytes(data);
            stash.put(id, 0, data);
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            acked.put(id, data);
        }
        FaultTomeIo.powerCut(disks, config, node::halt);
        int lostLocally = 0;
        for (ShardId id : acked.keySet()) {
            if (!java.nio.file.Files.exists(node.pathOf(id))) {
                lostLocally++;
            }
        }
        LOG.info("crashed after {} writes: {} shard files lost, {} still in the stash", crashAfter, lostLocally,
                stash.size());
        assertThat(lostLocally).as("the power loss must lose unflushed shards, or the test proves nothing")
                .isPositive();
        for (ShardId id : acked.keySet()) {
            if (!stash.contains(id)) {
                assertThat(java.nio.file.Files.exists(node.pathOf(id))).as("purged %s survives", id).isTrue();
            }
        }

        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
        try {
            for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                assertThat(read(restarted, e.getKey(), e.getValue().length)).as("shard %s", e.getKey())
                        .isEqualTo(e.getValue());
            }
            await("every stash copy purged", () -> stash.size() == 0);
        } finally {
            restarted.close();
        }
        assertThat(violations).as("purges that arrived before the pod's fsync").isEmpty();
    }

    /**
     * Stops the pod as the power cut would have. Until now it ran on, and a flush round after the cut may have
     * failed a tome (its rewrite found the tome without power) and recorded that in the state directory, which
     * is not on the fault tomes; on a real host nothing runs after the cut, so that record is dropped.
     */
    private static FaultTomeIo disk(boolean fileSystemSync) {
        return fileSystemSync ? new FaultTomeIo() : FaultTomeIo.fileByFile();
    }

    @Test
    void purgesQueuedWhileTheStashIsDownAreDeliveredAfterItReturnsAcrossARestart() throws Exception {
        InMemoryStash stash = new InMemoryStash();
        PodConfig config = config("5ms");
        PodNode node = assigned(PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(),
                Clock.systemUTC()));
        stash.setDown(true);
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ShardId id = new ShardId(1, i, 3);
            byte[] data = ("shard " + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            stash.put(id, 0, data);
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            ids.add(id);
        }
        await("50 events queued", () -> node.purgeQueueDepth() == 50);
        node.close(); // a clean shutdown: nothing unflushed, so the restart needs no stash to recover
        assertThat(stash.size()).isEqualTo(50);

        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
        try {
            assertThat(restarted.purgeQueueDepth()).isEqualTo(50);
            Thread.sleep(200);
            assertThat(stash.size()).isEqualTo(50);
            stash.setDown(false);
            await("the backlog delivered", () -> stash.size() == 0 && restarted.purgeQueueDepth() == 0);
            assertThat(stash.purged()).containsAll(ids);
        } finally {
            restarted.close();
        }
    }

    @Test
    void aMetricCountsWritesRejectedForTheirCrc() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicInteger none = new AtomicInteger();
        PodNode node = PodNode.open(config("5ms"), i -> DirectTomeIo.INSTANCE, null, registry,
                Clock.systemUTC());
        try {
            byte[] data = {1, 2, 3};
            try {
                node.write(new ShardId(1, 1, 3), 0, Crc32c.of(data) + 1, Unpooled.wrappedBuffer(data),
                        WriteMode.DURABLE);
            } catch (ShardStoreException expected) {
                none.incrementAndGet();
            }
            assertThat(none.get()).isEqualTo(1);
            assertThat(registry.get("shardvault.pod.crc.failures").tag("where", "write").counter().count()).isEqualTo(1.0);
        } finally {
            node.close();
        }
    }

    private static byte[] randomBytes(Random random, int max) {
        byte[] data = new byte[1 + random.nextInt(max)];
        random.nextBytes(data);
        return data;
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] out = java.util.Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, out, x.length, y.length);
        return out;
    }

    private static long writeCalls(List<FaultTomeIo> disks) {
        return disks.stream().mapToLong(FaultTomeIo::writeCalls).sum();
    }

    /**
     * The worst moment for the one-call write path: the power fails after a gathered write reached
     * the kernel and before its fsync, and it keeps a random prefix of every unsynced tail (a header
     * without its record, a record without all its data). Every acknowledged byte reads back:
     * durable writes from the pod's own disk, buffered ones from the disk or the stash; a durable
     * write caught in flight was never acknowledged, leaves earlier chunks readable, and its retry
     * succeeds.
     *
     * @param fileSystemSync the flusher syncs each tome's file system at once (syncfs), else each file
     */
    @ParameterizedTest(name = "fileSystemSync={0}")
    @ValueSource(booleans = {true, false})
    void aPowerLossTearingTheUnsyncedWritesLosesNoAcknowledgedByte(boolean fileSystemSync) throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        InMemoryStash stash = new InMemoryStash();
        List<FaultTomeIo> disks = List.of(disk(fileSystemSync), disk(fileSystemSync));
        PodConfig config = config("20ms");
        PodNode node = assigned(PodNode.open(config, disks::get, servers -> stash, new SimpleMeterRegistry(),
                Clock.systemUTC()));
        Map<ShardId, byte[]> acked = new LinkedHashMap<>();
        // Durable shards of two chunks each (two stripes), never in the stash: only the pod has them.
        for (int i = 0; i < 30; i++) {
            ShardId id = new ShardId(1, 5000 + i, 3);
            byte[] a = randomBytes(random, 8 << 10);
            byte[] b = randomBytes(random, 8 << 10);
            node.write(id, 0, Crc32c.of(a), Unpooled.wrappedBuffer(a), WriteMode.DURABLE);
            node.write(id, a.length, Crc32c.of(b), Unpooled.wrappedBuffer(b), WriteMode.DURABLE);
            acked.put(id, concat(a, b));
        }
        for (int i = 0; i < 100; i++) {
            ShardId id = new ShardId(1, 1000 + i, 3);
            byte[] data = randomBytes(random, 16 << 10);
            stash.put(id, 0, data);
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            acked.put(id, data);
        }
        disks.forEach(FaultTomeIo::holdSyncs);
        for (int i = 100; i < 120; i++) {
            ShardId id = new ShardId(1, 1000 + i, 3); // an existing fan-out directory: no directory sync
            byte[] data = randomBytes(random, 16 << 10);
            stash.put(id, 0, data);
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            acked.put(id, data);
        }
        // Two durable writes in flight: written to the kernel, their fsyncs held back.
        ShardId appendedTo = new ShardId(1, 5000, 3);
        int appendAt = acked.get(appendedTo).length;
        byte[] third = randomBytes(random, 8 << 10);
        ShardId created = new ShardId(1, 5100, 3);
        byte[] fresh = randomBytes(random, 8 << 10);
        long before = writeCalls(disks);
        java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newFixedThreadPool(2);
        java.util.concurrent.Future<?> append = writers.submit(() -> {
            node.write(appendedTo, appendAt, Crc32c.of(third), Unpooled.wrappedBuffer(third), WriteMode.DURABLE);
            return null;
        });
        java.util.concurrent.Future<?> create = writers.submit(() -> {
            node.write(created, 0, Crc32c.of(fresh), Unpooled.wrappedBuffer(fresh), WriteMode.DURABLE);
            return null;
        });
        await("both in-flight writes handed to the kernel", () -> writeCalls(disks) >= before + 2);
        for (FaultTomeIo d : disks) {
            d.tornPowerLoss(random);
        }
        for (java.util.concurrent.Future<?> f : List.of(append, create)) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> f.get(30, TimeUnit.SECONDS))).as("a write whose fsync the power cut is never acknowledged").isNotNull();
        }
        writers.shutdown();
        FaultTomeIo.haltAtThePowerCut(config, node::halt);

        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
        try {
            for (Map.Entry<ShardId, byte[]> e : acked.entrySet()) {
                assertThat(read(restarted, e.getKey(), e.getValue().length)).as("shard %s", e.getKey())
                        .isEqualTo(e.getValue());
            }
            // The coordinator retries the unacknowledged write: it goes in after the torn tail is cut.
            restarted.write(appendedTo, appendAt, Crc32c.of(third), Unpooled.wrappedBuffer(third),
                    WriteMode.DURABLE);
            assertThat(read(restarted, appendedTo, appendAt + third.length))
                    .isEqualTo(concat(acked.get(appendedTo), third));
            await("every stash copy purged", () -> stash.size() == 0);
        } finally {
            restarted.close();
        }
    }

    @Test
    void statsLookUpEachTomesFileStoreOnce() throws Exception {
        List<FaultTomeIo> disks = List.of(new FaultTomeIo(), new FaultTomeIo());
        PodNode node = PodNode.open(config("5ms"), disks::get, null, new SimpleMeterRegistry(),
                Clock.systemUTC());
        try {
            for (int i = 0; i < 5; i++) {
                assertThat(node.stats().usableBytes()).isPositive();
            }
            assertThat(disks).allSatisfy(d -> assertThat(d.fileStoreLookups()).isEqualTo(1));
        } finally {
            node.close();
        }
    }

    /** Opens the node over the real disk with its purge-queue appends going through a {@link FaultPurgeLog}. */
    private PodNode openWithFaultyPurgeLog(PodConfig config, InMemoryStash stash, FaultPurgeLog[] log)
            throws IOException {
        return PodNode.open(config, i -> DirectTomeIo.INSTANCE, queue -> log[0] = new FaultPurgeLog(queue),
                servers -> stash, new SimpleMeterRegistry(), Clock.systemUTC());
    }

    @Test
    void purgeEventsWhoseAppendFailedAreNotForgottenAtACleanShutdown() throws Exception {
        InMemoryStash stash = new InMemoryStash();
        PodConfig config = config("5ms");
        FaultPurgeLog[] log = new FaultPurgeLog[1];
        PodNode node = assigned(openWithFaultyPurgeLog(config, stash, log));
        ShardId id = new ShardId(1, 77, 3);
        byte[] data = {7, 7, 7};
        stash.put(id, 0, data);
        log[0].failNextAppends(Integer.MAX_VALUE);
        node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
        await("the flusher's append failed", () -> log[0].failedAppends() > 0 && node.unflushedBytes() == 0);
        node.close();
        assertThat(config.stateDir().resolve(CleanShutdownMarker.NAME))
                .as("no clean shutdown recorded while purge events are held").doesNotExist();
        assertThat(stash.contains(id)).isTrue();

        // Not clean, so the next start recovers: it finds the shard durable here and queues its purge.
        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(), Clock.systemUTC());
        try {
            await("the stash copy purged", () -> !stash.contains(id));
            assertThat(read(restarted, id, data.length)).isEqualTo(data);
        } finally {
            restarted.close();
        }
    }

    @Test
    void aFailedPurgeAppendIsRetriedOnTheNextFlushRound() throws Exception {
        InMemoryStash stash = new InMemoryStash();
        FaultPurgeLog[] log = new FaultPurgeLog[1];
        PodNode node = assigned(openWithFaultyPurgeLog(config("5ms"), stash, log));
        try {
            ShardId id = new ShardId(1, 78, 3);
            byte[] data = {8, 8};
            stash.put(id, 0, data);
            log[0].failNextAppends(3);
            node.write(id, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
            await("the stash copy purged without a restart", () -> !stash.contains(id));
            assertThat(log[0].failedAppends()).isEqualTo(3);
        } finally {
            node.close();
        }
        assertThat(config("5ms").stateDir().resolve(CleanShutdownMarker.NAME)).exists();
    }
}
