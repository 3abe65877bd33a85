package io.shardvault.pod.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.shardvault.pod.internal.PodTesting.assigned;
import static io.shardvault.pod.internal.PodTesting.await;
import static io.shardvault.pod.internal.PodTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The flusher after a failed fsync (issue #20, section 1), on a {@link FaultTomeIo} whose failed
 * fsync drops the file's dirty pages as Linux may: a retried fsync of the same file then succeeds
 * and writes nothing. The stash copy must survive until the bytes are really on disk, and the shard
 * must read back exact after a power cut.
 */
@Timeout(120)
class FlusherFsyncFailureTest {
    private static final ShardId SHARD = new ShardId(1, 4242, 3);

    @TempDir
    Path dir;

    private PodConfig config(String flushInterval) {
        return PodConfig.from(Settings.of(Map.of("pod.name", "p3", "pod.stateDir", dir.resolve("state").toString(),
                "pod.tomes", dir.resolve("t0").toString(), "pod.flush.interval", flushInterval, "pod.purge.retry.min", "10ms", "pod.purge.retry.max", "100ms")));
    }

    /** Records every purge that reaches the stash while the pod's copy would not survive a power cut. */
    private static List<String> purgesBeforeDurable(InMemoryStash stash, FaultTomeIo disk, PodNode[] node) {
        List<String> violations = new CopyOnWriteArrayList<>();
        stash.onPurge(id -> {
            try {
                if (!disk.isDurable(node[0].pathOf(id))) {
                    violations.add(id.toString());
                }
            } catch (IOException e) {
                violations.add(id + ": " + e);
            }
        });
        return violations;
    }

    private static byte[] bytes(int n) {
        byte[] data = new byte[n];
        new Random(n).nextBytes(data);
        return data;
    }

    @Test
    void aFailedFsyncIsRewrittenFromTheStashBeforeItsPurge() throws Exception {
        checkRewrittenBeforePurge(FaultTomeIo.fileByFile(), (disk, file) -> disk.failNextSyncs(1));
    }

    @Test
    void aFailedDirectorySyncIsRewrittenFromTheStashBeforeItsPurge() throws Exception {
        checkRewrittenBeforePurge(FaultTomeIo.fileByFile(), (disk, file) -> disk.failNextDirectorySyncs(1));
    }

    @Test
    void aFailedFileSystemSyncIsRewrittenFromTheStashBeforeItsPurge() throws Exception {
        checkRewrittenBeforePurge(new FaultTomeIo(), (disk, file) -> disk.failNextFileSystemSyncs(1));
    }

    @ParameterizedTest(name = "fileSystemSync={0}")
    @ValueSource(booleans = {true, false})
    void aPendingShardWhoseFileVanishedIsRewrittenNotPurged(boolean fileSystemSync) throws Exception {
        checkRewrittenBeforePurge(disk(fileSystemSync), (disk, file) -> Files.delete(file)); // lost under the pod
    }

    /**
     * syncfs reports a writeback error that hit anything on the file system, in the batch or not: a shard
     * still waiting for a later batch may have lost its pages too, so it is rewritten before its purge.
     */
    @Test
    void aFailedFileSystemSyncDistrustsPendingShardsOutsideItsBatch() throws Exception {
        InMemoryStash stash = new InMemoryStash();
        FaultTomeIo disk = new FaultTomeIo();
        PodNode[] node = new PodNode[1];
        List<String> violations = purgesBeforeDurable(stash, disk, node);
        MeterRegistry meters = new SimpleMeterRegistry();
        PodConfig config = PodConfig.from(Settings.of(Map.of("pod.name", "p3", "pod.stateDir",
                dir.resolve("state").toString(), "pod.tomes", dir.resolve("t0").toString(), "pod.flush.interval", "10m",
                "pod.flush.batchShards", "1", "pod.purge.retry.min", "10ms", "pod.purge.retry.max", "100ms")));
        node[0] = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        ShardId other = new ShardId(1, 4343, 3);
        byte[] data = bytes(20_000);
        byte[] otherData = bytes(30_000);
        stash.put(SHARD, 0, data);
        stash.put(other, 0, otherData);
        node[0].write(SHARD, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
        node[0].write(other, 0, Crc32c.of(otherData), Unpooled.wrappedBuffer(otherData), WriteMode.BUFFERED);
        disk.failNextFileSystemSyncs(1); // the first batch (one shard) fails, dropping both shards' pages
        node[0].close();

        node[0] = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        await("both stash copies purged", () -> !stash.contains(SHARD) && !stash.contains(other));
        assertThat(violations).as("purges that went out before the shard was durable").isEmpty();
        assertThat(meters.get("shardvault.pod.recovery.restored").counter().count())
                .as("shards rewritten from the stash").isEqualTo(2.0);
        disk.powerLoss();
        node[0].halt();

        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(), Clock.systemUTC());
        try {
            assertThat(read(restarted, SHARD, data.length)).isEqualTo(data);
            assertThat(read(restarted, other, otherData.length)).isEqualTo(otherData);
        } finally {
            restarted.close();
        }
    }

    private static FaultTomeIo disk(boolean fileSystemSync) {
        return fileSystemSync ? new FaultTomeIo() : FaultTomeIo.fileByFile();
    }

    @FunctionalInterface
    private interface Fault {
        void inject(FaultTomeIo disk, Path shardFile) throws IOException;
    }

    /**
     * Writes one buffered shard (its stash copy synced first, as the coordinator does), then injects
     * {@code fault} while its flush is pending; a clean close flushes it. The stash copy may be purged
     * only once the shard is durable, and after a power cut the shard reads back exact.
     */
    private void checkRewrittenBeforePurge(FaultTomeIo disk, Fault fault) throws Exception {
        InMemoryStash stash = new InMemoryStash();
        PodNode[] node = new PodNode[1];
        List<String> violations = purgesBeforeDurable(stash, disk, node);
        MeterRegistry meters = new SimpleMeterRegistry();
        PodConfig config = config("10m");
        node[0] = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        byte[] data = bytes(20_000);
        stash.put(SHARD, 0, data);
        node[0].write(SHARD, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
        fault.inject(disk, node[0].pathOf(SHARD));
        node[0].close(); // flushes what is pending, retries included

        node[0] = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        await("the stash copy purged", () -> !stash.contains(SHARD));
        assertThat(violations).as("purges that went out before the shard was durable").isEmpty();
        assertThat(meters.get("shardvault.pod.recovery.restored").counter().count())
                .as("shards rewritten from the stash").isEqualTo(1.0);
        disk.powerLoss();
        node[0].halt();

        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(),
                Clock.systemUTC());
        try {
            assertThat(read(restarted, SHARD, data.length)).as("the shard after a power cut").isEqualTo(data);
        } finally {
            restarted.close();
        }
    }

    @ParameterizedTest(name = "fileSystemSync={0}")
    @ValueSource(booleans = {true, false})
    void aShardThatCannotBeRewrittenFailsItsTomeAndKeepsTheStashCopies(boolean fileSystemSync) throws Exception {
        InMemoryStash stash = new InMemoryStash();
        FaultTomeIo disk = disk(fileSystemSync);
        MeterRegistry meters = new SimpleMeterRegistry();
        PodConfig config = config("10m");
        PodNode node = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        // Two pending shards whose fsyncs (or the batch's syncfs) fail in one batch: the first can be rewritten from its stash
        // copy, the second cannot (its copy is missing), which fails the tome.
        ShardId kept = new ShardId(1, 7, 3);
        byte[] keptData = bytes(300);
        stash.put(kept, 0, keptData);
        byte[] data = bytes(500);
        if (fileSystemSync) {
            disk.failNextFileSystemSyncs(1);
        } else {
            disk.failNextSyncs(2);
        }
        node.write(kept, 0, Crc32c.of(keptData), Unpooled.wrappedBuffer(keptData), WriteMode.BUFFERED);
        node.write(SHARD, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.BUFFERED);
        node.close(); // its flush rounds find the failure

        Gauge failed = meters.get("shardvault.pod.tomes.failed").gauge();
        assertThat(failed.value()).as("failed tomes").isEqualTo(1.0);
        assertThatThrownBy(() -> node.write(new ShardId(1, 8, 3), 0, Crc32c.of(data), Unpooled.wrappedBuffer(data),
                WriteMode.BUFFERED)).as("a failed tome takes no writes")
                .isInstanceOfSatisfying(ShardStoreException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
        assertThat(stash.purged()).as("nothing purged from a failed tome").isEmpty();
        assertThat(stash.contains(kept)).isTrue();

        Path state = dir.resolve("state");
        assertThat(state.resolve(FailedTomeMarker.name(0))).as("the failure recorded").exists();
        assertThat(state.resolve(CleanShutdownMarker.NAME)).doesNotExist();

        // A restart keeps the tome failed: no writes, and recovery leaves its shards' stash copies alone
        // (they cannot go to another tome: placement is a hash over the tome list).
        MeterRegistry again = new SimpleMeterRegistry();
        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash, again,
                Clock.systemUTC());
        try {
            assertThat(again.get("shardvault.pod.tomes.failed").gauge().value()).as("failed after a restart")
                    .isEqualTo(1.0);
            assertThat(restarted.stats().failedTomes()).as("STATS").singleElement().satisfies(t -> {
                assertThat(t.tome()).isZero();
                assertThat(t.directory()).isEqualTo(dir.resolve("t0").toString());
                assertThat(t.reason()).startsWith("shard " + SHARD + " failed its fsync");
                assertThat(t.failedAtMillis()).isPositive();
                assertThat(t.recorded()).isTrue();
            });
            // Depth first: a purge recovery queued is either still queued or already took the copy.
            assertThat(restarted.purgeQueueDepth()).as("recovery queued no purge for the failed tome").isZero();
            assertThat(stash.contains(kept)).as("recovery kept the failed tome's stash copy").isTrue();
            assertThat(restarted.failedTomes()).singleElement().asString()
                    .startsWith("tome 0 (" + dir.resolve("t0") + "): shard " + SHARD + " failed its fsync");
            assertThatThrownBy(() -> restarted.write(new ShardId(1, 9, 3), 0, Crc32c.of(data),
                    Unpooled.wrappedBuffer(data), WriteMode.BUFFERED)).as("still no writes after a restart")
                    .isInstanceOfSatisfying(ShardStoreException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
        } finally {
            restarted.close();
        }
        assertThat(stash.contains(kept)).as("recovery kept the failed tome's stash copy").isTrue();
        assertThat(stash.purged()).as("nothing purged from a failed tome").isEmpty();
        assertThat(state.resolve(CleanShutdownMarker.NAME)).as("no clean shutdown while a tome is failed")
                .doesNotExist();

        // Cleared as docs/OPERATIONS.md says: the disk replaced (here, the same one, healthy now) and the
        // record deleted while the pod is stopped. The next start restores the shard onto the tome.
        Files.delete(state.resolve(FailedTomeMarker.name(0)));
        MeterRegistry cleared = new SimpleMeterRegistry();
        PodNode back = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash, cleared,
                Clock.systemUTC());
        try {
            assertThat(cleared.get("shardvault.pod.tomes.failed").gauge().value()).isZero();
            assertThat(back.stats().failedTomes()).isEmpty();
            assertThat(read(back, kept, keptData.length)).isEqualTo(keptData);
            await("the restored shard's copy purged", () -> !stash.contains(kept));
            ShardId fresh = new ShardId(1, 10, 3);
            back.write(fresh, 0, Crc32c.of(data), Unpooled.wrappedBuffer(data), WriteMode.DURABLE);
            assertThat(read(back, fresh, data.length)).isEqualTo(data);
        } finally {
            back.close();
        }
        assertThat(state.resolve(CleanShutdownMarker.NAME)).as("a clean shutdown once the tome is back").exists();
    }
}
