package io.shardvault.pod.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.api.FailedTome;
import io.shardvault.pod.api.WriteMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Random;

import static io.shardvault.pod.internal.PodTesting.assigned;
import static io.shardvault.pod.internal.PodTesting.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tome fails while its state directory refuses the failure record (here: a directory stands where
 * the record goes, so its rename fails, as on a disk that fails too). The pod must not lose the fact:
 * the tome stays failed in memory (no writes, no purges), no clean shutdown is recorded, the failure
 * shows as unrecorded (STATS and a gauge), and the record is written once the directory takes it.
 */
@Timeout(120)
class FailedTomeRecordTest {
    private static final ShardId LOST = new ShardId(1, 4242, 3);
    private static final ShardId KEPT = new ShardId(1, 7, 3);

    @TempDir
    Path dir;

    private static byte[] bytes(int n) {
        byte[] data = new byte[n];
        new Random(n).nextBytes(data);
        return data;
    }

    private static boolean recorded(PodNode node) {
        try {
            return node.stats().failedTomes().get(0).recorded();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private final InMemoryStash stash = new InMemoryStash();
    private final FaultTomeIo disk = FaultTomeIo.fileByFile();
    private final MeterRegistry meters = new SimpleMeterRegistry();

    private PodConfig config(String flushInterval) {
        return PodConfig.from(Settings.of(Map.of("pod.name", "p3", "pod.stateDir", dir.resolve("state").toString(),
                "pod.tomes", dir.resolve("t0").toString(), "pod.flush.interval", flushInterval,
                "pod.purge.retry.min", "10ms", "pod.purge.retry.max", "100ms")));
    }

    /**
     * Opens a node on the fault disk, puts a directory where tome 0's failure record goes (its rename
     * then fails), and writes two buffered shards with two fsync failures ahead: KEPT has a stash copy,
     * LOST has none. The tome fails either way the flush rounds fall: LOST's fsync fails and it cannot
     * be rewritten, or (rounds of one shard) KEPT's rewrite meets the second failure.
     */
    private PodNode openAndFailTomeWithItsRecordBlocked(PodConfig config) throws Exception {
        PodNode node = assigned(PodNode.open(config, i -> disk, servers -> stash, meters, Clock.systemUTC()));
        Files.createDirectories(config.stateDir().resolve(FailedTomeMarker.name(0)).resolve("in-the-way"));
        byte[] keptData = bytes(300);
        stash.put(KEPT, 0, keptData);
        byte[] lostData = bytes(500);
        disk.failNextSyncs(2);
        node.write(KEPT, 0, Crc32c.of(keptData), Unpooled.wrappedBuffer(keptData), WriteMode.BUFFERED);
        node.write(LOST, 0, Crc32c.of(lostData), Unpooled.wrappedBuffer(lostData), WriteMode.BUFFERED);
        return node;
    }

    @Test
    void aFailureThatCannotBeRecordedKeepsTheTomeFailedShowsItAndIsRecordedOnceItCanBe() throws Exception {
        PodConfig config = config("50ms");
        Path state = config.stateDir();
        Path record = state.resolve(FailedTomeMarker.name(0));
        PodNode node = openAndFailTomeWithItsRecordBlocked(config);
        try {
            byte[] lostData = bytes(500);
            await("the tome failed", () -> !node.failedTomes().isEmpty());

            FailedTome failed = node.stats().failedTomes().get(0);
            assertThat(failed.recorded()).as("recorded").isFalse();
            assertThat(failed.failedAtMillis()).isPositive();
            assertThat(node.failedTomes()).singleElement().asString().contains("NOT recorded");
            assertThat(meters.get("shardvault.pod.tomes.failed.unrecorded").gauge().value()).isEqualTo(1.0);
            assertThatThrownBy(() -> node.write(new ShardId(1, 8, 3), 0, Crc32c.of(lostData),
                    Unpooled.wrappedBuffer(lostData), WriteMode.DURABLE)).as("still no writes")
                    .isInstanceOfSatisfying(ShardStoreException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
            Thread.sleep(300); // a few flush rounds, each retrying the record and failing again
            assertThat(node.stats().failedTomes().get(0).recorded()).isFalse();
            assertThat(stash.purged()).as("nothing purged from the failed tome").isEmpty();

            // The state directory takes the record again: the next round writes it.
            Files.delete(record.resolve("in-the-way"));
            Files.delete(record);
            await("the record written", () -> Files.isRegularFile(record));
            await("the failure shown as recorded", () -> recorded(node));
            assertThat(meters.get("shardvault.pod.tomes.failed.unrecorded").gauge().value()).isZero();
            assertThat(FailedTomeMarker.read(state, 0)).get().extracting(e -> e.failedAt().toEpochMilli())
                    .as("the record keeps when the tome failed, not when it was written").isEqualTo(failed.failedAtMillis());
        } finally {
            node.close();
        }
        assertThat(state.resolve(CleanShutdownMarker.NAME)).as("no clean shutdown with a failed tome").doesNotExist();
        assertThat(stash.contains(KEPT)).as("the failed tome's stash copy kept").isTrue();
        PodNode restarted = PodNode.open(config, i -> DirectTomeIo.INSTANCE, servers -> stash,
                new SimpleMeterRegistry(), Clock.systemUTC());
        try {
            assertThat(restarted.stats().failedTomes()).as("failed after a restart").singleElement()
                    .satisfies(t -> assertThat(t.recorded()).isTrue());
        } finally {
            restarted.close();
        }
        assertThat(stash.contains(KEPT)).as("recovery kept the failed tome's stash copy").isTrue();
    }

    /** The record never lands: the process still keeps the tome failed and records no clean shutdown. */
    @Test
    void aFailureNeverRecordedStillRefusesACleanShutdown() throws Exception {
        PodConfig config = config("10m");
        Path state = config.stateDir();
        PodNode node = openAndFailTomeWithItsRecordBlocked(config);
        node.close(); // its flush rounds fail the tome; the record cannot be written

        assertThat(node.stats().failedTomes()).singleElement().satisfies(t -> assertThat(t.recorded()).isFalse());
        assertThat(meters.get("shardvault.pod.tomes.failed.unrecorded").gauge().value()).isEqualTo(1.0);
        assertThat(state.resolve(CleanShutdownMarker.NAME)).as("no clean shutdown").doesNotExist();
        assertThat(stash.purged()).as("nothing purged").isEmpty();
        assertThat(stash.contains(KEPT)).isTrue();
    }
}
