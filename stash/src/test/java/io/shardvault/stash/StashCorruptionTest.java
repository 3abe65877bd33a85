package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.stash.api.StashEntry;
import io.shardvault.stash.internal.RocksShardStore;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A corrupted value is reported CORRUPT, counted, and never served as data. */
@Timeout(120)
class StashCorruptionTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashCorruptionTest.class);

    @TempDir
    Path dir;

    @Test
    void aValueWithAFlippedByteIsCorruptNotServed() throws Exception {
        ShardId bad = new ShardId(1, 1, 1);
        ShardId badHeader = new ShardId(1, 2, 1);
        ShardId good = new ShardId(1, 3, 1);
        byte[] data = randomBytes(10_000, 1);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir))) {
            await(stash.put(bad, 0, data));
            await(stash.put(badHeader, 0, data));
            await(stash.put(good, 0, data));
            stash.server.close();

            // Rot two values under the server: one byte of the chunk, one byte of the header.
            rewriteChunkValue(stash.partitionDir(bad), bad, value -> value[value.length / 2] ^= 0x10);
            rewriteChunkValue(stash.partitionDir(badHeader), badHeader, value -> value[0] ^= 0x01);

            stash.start();
            assertThat(failure(stash.client.get(stash.address(), bad)).code()).isEqualTo(ErrorCode.CORRUPT);
            assertThat(failure(stash.client.get(stash.address(), badHeader)).code()).isEqualTo(ErrorCode.CORRUPT);
            assertThat(stash.registry.get("shardvault.stash.corrupt").counter().count()).isEqualTo(2);
            try (StashEntry entry = await(stash.client.get(stash.address(), good))) {
                assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(data);
            }
        }
    }

    @Test
    void aFlippedByteInABlobFileIsCorruptNotServed() throws Exception {
        ShardId id = new ShardId(2, 1, 1);
        byte[] data = randomBytes(256 << 10, 2);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir))) {
            await(stash.put(id, 0, data));
            stash.server.close();
            Path partition = stash.partitionDir(id);
            try (RocksShardStore store = RocksShardStore.open(partition, stash.config.store())) {
                store.flush();
            }
            List<Path> blobs;
            try (Stream<Path> files = Files.list(partition)) {
                blobs = files.filter(p -> p.toString().endsWith(".blob")).toList();
            }
            assertThat(blobs).as("the chunk went to a blob file").hasSize(1);
            try (FileChannel channel = FileChannel.open(blobs.get(0), StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                long at = channel.size() / 2;
                ByteBuffer one = ByteBuffer.allocate(1);
                channel.read(one, at);
                one.flip();
                one.put(0, (byte) (one.get(0) ^ 0x04));
                channel.write(one, at);
                channel.force(true);
                LOG.info("flipped a bit at offset {} of {}", at, blobs.get(0));
            }

            stash.start();
            assertThat(failure(stash.client.get(stash.address(), id)).code()).isEqualTo(ErrorCode.CORRUPT);
        }
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private interface Rot {
        void apply(byte[] value);
    }

    /** Opens the database with plain RocksDB, bypassing the stash, and rewrites one chunk value. */
    private static void rewriteChunkValue(Path databaseDir, ShardId id, Rot rot) throws Exception {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
             DBOptions dbOptions = new DBOptions()) {
            List<ColumnFamilyDescriptor> descriptors = List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                    new ColumnFamilyDescriptor("meta".getBytes(StandardCharsets.UTF_8), cfOptions));
            try (RocksDB db = RocksDB.open(dbOptions, databaseDir.toString(), descriptors, handles)) {
                byte[] value = db.get(handles.get(0), id.encode());
                assertThat(value).isNotNull();
                rot.apply(value);
                db.put(handles.get(0), id.encode(), value);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
