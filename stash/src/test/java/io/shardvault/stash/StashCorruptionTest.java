package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.testing.FileFaults;
import io.shardvault.stash.api.StashEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A corrupted value is reported CORRUPT, counted, and never served as data. */
@Timeout(120)
class StashCorruptionTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashCorruptionTest.class);

    @TempDir
    Path dir;

    /**
     * Rot under a stopped server: one byte of a chunk, one of a chunk value's header, one of a chunk
     * log record's header. The entries are in a sealed segment (the server was restarted once since
     * they were written), which is read back lazily: the read finds the damage.
     */
    @Test
    void aValueWithAFlippedByteIsCorruptNotServed() throws Exception {
        ShardId bad = new ShardId(1, 1, 1);
        ShardId badHeader = new ShardId(1, 2, 1);
        ShardId badRecord = new ShardId(1, 4, 1);
        ShardId good = new ShardId(1, 3, 1);
        byte[] data = randomBytes(10_000, 1);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir))) {
            for (ShardId id : List.of(bad, badHeader, badRecord, good)) {
                await(stash.put(id, 0, data));
            }
            stash.restart();
            stash.server.close();

            flipByte(stash.partitionDir(bad), bad, VALUE_START + data.length / 2);
            flipByte(stash.partitionDir(badHeader), badHeader, VALUE_START);
            flipByte(stash.partitionDir(badRecord), badRecord, 0);

            stash.start();
            for (ShardId id : List.of(bad, badHeader, badRecord)) {
                assertThat(failure(stash.client.get(stash.address(), id)).code()).as("%s", id)
                        .isEqualTo(ErrorCode.CORRUPT);
            }
            assertThat(stash.registry.get("shardvault.stash.corrupt").counter().count()).isEqualTo(3);
            try (StashEntry entry = await(stash.client.get(stash.address(), good))) {
                assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(data);
            }
        }
    }

    /** Where the chunk value starts in a chunk log record, counted from its ShardId (at record byte 2). */
    private static final int VALUE_START = 21;

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /**
     * Flips a byte {@code at} bytes after {@code id}'s key in the chunk log segment holding its
     * record (the key is unique there: every test entry was written once).
     */
    private static void flipByte(Path partitionDir, ShardId id, int at) throws Exception {
        byte[] key = id.encode();
        List<Path> segments;
        try (Stream<Path> files = Files.list(partitionDir.resolve("chunks"))) {
            segments = files.filter(p -> p.getFileName().toString().endsWith(".log")).toList();
        }
        for (Path segment : segments) {
            byte[] content = Files.readAllBytes(segment);
            for (int i = 0; i + key.length <= content.length; i++) {
                if (Arrays.equals(content, i, i + key.length, key, 0, key.length)) {
                    FileFaults.flipBits(segment, i + at, 0x04);
                    LOG.info("flipped a bit {} bytes after {}'s key in {}", at, id, segment);
                    return;
                }
            }
        }
        throw new AssertionError("no chunk log record of " + id);
    }
}
