package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.StashStoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class RocksShardStoreTest {
    @TempDir
    Path dir;

    private static ShardStore.Put put(ShardId id, byte[] chunk) {
        StashEntryInfo info = new StashEntryInfo(id, 0, chunk.length, Crc32c.of(chunk), 1);
        return new ShardStore.Put(info, Unpooled.wrappedBuffer(EntryFormat.encodeChunkValue(info,
                Unpooled.wrappedBuffer(chunk))));
    }

    /**
     * The stash's own chunks arrive in pooled direct buffers (slices of the socket's frame), which the
     * chunk value shares rather than copies; tests' come in heap ones: both store the same bytes.
     */
    @Test
    void directAndHeapValuesAreStoredAlike() throws Exception {
        byte[] chunk = new byte[20_000];
        new Random(11).nextBytes(chunk);
        ShardId heapId = new ShardId(3, 1, 0);
        ShardId directId = new ShardId(3, 2, 0);
        StashEntryInfo directInfo = new StashEntryInfo(directId, 0, chunk.length, Crc32c.of(chunk), 1);
        ByteBuf arrived = PooledByteBufAllocator.DEFAULT.directBuffer(chunk.length).writeBytes(chunk);
        ByteBuf direct = EntryFormat.encodeChunkValue(directInfo, arrived, PooledByteBufAllocator.DEFAULT);
        try (RocksShardStore store = RocksShardStore.open(dir, StashStoreOptions.defaults())) {
            assertThat(arrived.refCnt()).as("the value holds the arrived chunk, not a copy").isEqualTo(2);
            store.write(List.of(put(heapId, chunk), new ShardStore.Put(directInfo, direct)));
            store.syncWal();
            assertThat(direct.readableBytes()).as("the store leaves the caller's buffer as it was")
                    .isEqualTo(EntryFormat.CHUNK_HEADER_BYTES + chunk.length);
            for (ShardId id : List.of(heapId, directId)) {
                byte[] value = store.chunkValue(id).orElseThrow();
                assertThat(EntryFormat.decodeChunkValue(id, value).length()).isEqualTo(chunk.length);
                assertThat(Arrays.copyOfRange(value, EntryFormat.CHUNK_HEADER_BYTES, value.length)).isEqualTo(chunk);
            }
        } finally {
            direct.release();
            assertThat(arrived.release()).as("releasing the value lets the chunk go").isTrue();
        }
    }

    /** The O_DIRECT probe says yes where the file system takes O_DIRECT, and leaves nothing behind. */
    @Test
    void theDirectIoProbeFindsODirectOnDiskFileSystems() throws Exception {
        String type = Files.getFileStore(dir).type();
        boolean supported = RocksShardStore.supportsDirectIo(dir);
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).as("files left by the probe").isEmpty();
        }
        Assumptions.assumeTrue(List.of("ext4", "xfs", "btrfs").contains(type),
                "the test directory is on " + type + ", which may refuse O_DIRECT");
        assertThat(supported).as("O_DIRECT on " + type).isTrue();
    }

    @Test
    void listingTheLastSlotOfTheKeySpaceWorks() throws Exception {
        try (RocksShardStore store = RocksShardStore.open(dir, StashStoreOptions.defaults())) {
            ShardId last = new ShardId(Integer.MAX_VALUE, Long.MAX_VALUE, 255);
            ShardId first = new ShardId(Integer.MAX_VALUE, 0, 255);
            store.commit(List.of(put(last, new byte[] {1}), put(first, new byte[] {2}),
                    put(new ShardId(Integer.MAX_VALUE, 5, 254), new byte[] {3})));
            assertThat(store.listSlot(Integer.MAX_VALUE, 255, Optional.empty(), 10))
                    .extracting(StashEntryInfo::id).containsExactly(first, last);
            assertThat(store.listSlot(Integer.MAX_VALUE, 255, Optional.of(first), 10))
                    .extracting(StashEntryInfo::id).containsExactly(last);
            assertThat(store.listSlot(Integer.MAX_VALUE, 255, Optional.of(last), 10)).isEmpty();
        }
        assertThat(RocksShardStore.successor(new byte[] {1, (byte) 0xFF})).containsExactly(2);
        assertThat(RocksShardStore.successor(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
    }
}
