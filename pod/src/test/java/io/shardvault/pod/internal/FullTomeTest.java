package io.shardvault.pod.internal;

import static io.shardvault.pod.internal.PodTesting.assigned;
import static io.shardvault.pod.internal.PodTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.api.WriteMode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tome whose file system fills up under a live pod (issue #23's full tome), on a {@link FaultTomeIo} that
 * refuses file writes with ENOSPC as a full disk does while it still creates files: a write is refused with
 * {@code NO_SPACE} (the coordinator writes around the pod), what the tome holds still reads, and once there is
 * room again the same shards take writes, a new one included.
 */
@Timeout(60)
class FullTomeTest {
    private static final ShardId HELD = new ShardId(1, 7001, 3);
    private static final ShardId NEW = new ShardId(1, 7002, 3);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WriteMode.class)
    void aFullTomeRefusesWritesWithNoSpaceServesReadsAndTakesTheSameShardsOnceThereIsRoom(WriteMode mode)
            throws Exception {
        FaultTomeIo disk = new FaultTomeIo();
        PodConfig config = PodConfig.from(Settings.of(Map.of("pod.name", "p3", "pod.stateDir",
                dir.resolve("state").toString(), "pod.tomes", dir.resolve("t0").toString())));
        byte[] first = bytes(10_000, 1);
        byte[] second = bytes(7_000, 2);
        byte[] fresh = bytes(9_000, 3);
        try (PodNode node = assigned(PodNode.open(config, i -> disk, servers -> new InMemoryStash(),
                new SimpleMeterRegistry(), Clock.systemUTC()))) {
            write(node, HELD, 0, first, mode);

            disk.fill();
            for (ShardId id : new ShardId[] {NEW, HELD}) {
                long offset = id.equals(HELD) ? first.length : 0;
                assertThatThrownBy(() -> write(node, id, offset, id.equals(HELD) ? second : fresh, mode))
                        .as("a write of %s to the full tome", id)
                        .isInstanceOfSatisfying(ShardStoreException.class,
                                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_SPACE));
            }
            assertThat(read(node, HELD, first.length)).isEqualTo(first);

            disk.makeRoom();
            // The refused new shard left no file behind that a later write would take for a damaged one.
            write(node, NEW, 0, fresh, mode);
            write(node, HELD, first.length, second, mode);
            assertThat(read(node, NEW, fresh.length)).isEqualTo(fresh);
            byte[] both = Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, both, first.length, second.length);
            assertThat(read(node, HELD, both.length)).isEqualTo(both);
        }
    }

    private static void write(PodNode node, ShardId id, long offset, byte[] data, WriteMode mode) throws Exception {
        node.write(id, offset, Crc32c.of(data), Unpooled.wrappedBuffer(data), mode);
    }

    private static byte[] bytes(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }
}
