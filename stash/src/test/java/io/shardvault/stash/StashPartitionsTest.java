package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.stash.api.StashEntry;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.StashPlacement;
import io.shardvault.stash.api.internal.StashWire;
import io.shardvault.stash.internal.EntryFormat;
import io.shardvault.stash.internal.RocksShardStore;
import io.shardvault.stash.internal.ShardStore;
import io.shardvault.stash.internal.StashLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A stash server's partitions against real RocksDB databases: where entries land, and what spans them. */
@Timeout(120)
class StashPartitionsTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashPartitionsTest.class);
    private static final int FILES = 64;

    @TempDir
    Path dir;

    private static byte[] bytes(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    @Test
    void eachEntryIsStoredInItsFilesPartitionAndAPurgeAcrossPartitionsCountsThemAll() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        StashConfig config = StashConfig.defaults(dir).withPartitions(3);
        Map<ShardId, byte[]> stored = new HashMap<>();
        try (StashFixture stash = new StashFixture(config)) {
            List<CompletableFuture<Void>> puts = new ArrayList<>();
            for (int file = 0; file < FILES; file++) {
                ShardId id = new ShardId(1, random.nextLong() & Long.MAX_VALUE, file % 20);
                byte[] data = bytes(random, 1 + random.nextInt(8 << 10));
                stored.put(id, data);
                puts.add(stash.put(id, 0, data));
            }
            puts.forEach(StashFixture::await);
        }

        // Each id is in exactly one database: the one its file hashes to. Every partition got some.
        StashLayout layout = StashLayout.open(dir, 3);
        assertThat(layout.partitions()).isEqualTo(3);
        int[] perPartition = new int[3];
        for (int p = 0; p < 3; p++) {
            try (ShardStore store = RocksShardStore.open(layout.partitionDirs().get(p),
                    config.store().perPartition(3))) {
                for (ShardId id : stored.keySet()) {
                    boolean here = store.meta(id).isPresent();
                    assertThat(here).as(id + " in partition " + p).isEqualTo(StashPlacement.partitionOf(id, 3) == p);
                    perPartition[p] += here ? 1 : 0;
                }
            }
        }
        assertThat(perPartition).doesNotContain(0);
        LOG.info("entries per partition: {}", perPartition);

        try (StashFixture stash = new StashFixture(config)) {
            for (Map.Entry<ShardId, byte[]> entry : stored.entrySet()) {
                try (StashEntry read = await(stash.client.get(stash.address(), entry.getKey()))) {
                    assertThat(ByteBufUtil.getBytes(read.data())).isEqualTo(entry.getValue());
                }
            }
            List<ShardId> purge = new ArrayList<>(stored.keySet());
            purge.add(new ShardId(1, 42, 21));
            // Raw, to read the count the server answers (the client only needs to know it succeeded).
            try (RpcMessage answer = await(stash.rpc.call(stash.address(), new RpcMessage(StashOps.PURGE,
                    Unpooled.EMPTY_BUFFER, StashWire.encodePurgePayload(ByteBufAllocator.DEFAULT, purge))))) {
                assertThat(answer.header().readInt()).as("entries deleted over all partitions").isEqualTo(FILES);
            }
            assertThat(await(stash.client.stats(stash.address())).entries()).isZero();
            for (ShardId id : stored.keySet()) {
                assertThat(failure(stash.client.get(stash.address(), id)).code()).isEqualTo(ErrorCode.NOT_FOUND);
            }
        }
    }

    @Test
    void theCountADirectoryWasCreatedWithOutlivesAChangedSetting() throws Exception {
        Random random = new Random(7);
        List<ShardId> ids = new ArrayList<>();
        byte[] data = bytes(random, 4096);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withPartitions(2))) {
            for (int file = 0; file < 16; file++) {
                ids.add(new ShardId(2, file, 5));
                await(stash.put(ids.get(file), 0, data));
            }
        }
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withPartitions(5))) {
            for (ShardId id : ids) {
                try (StashEntry read = await(stash.client.get(stash.address(), id))) {
                    assertThat(ByteBufUtil.getBytes(read.data())).isEqualTo(data);
                }
            }
            assertThat(await(stash.client.list(stash.address(), 2, 5, java.util.Optional.empty(), 100)).entries())
                    .hasSize(16);
        }
        assertThat(Files.readString(dir.resolve("stash.layout")).strip()).isEqualTo("partitions=2");
        assertThat(dir.resolve("partition-2")).doesNotExist();
    }

    @Test
    void aStashWrittenAsOneDatabaseIsServedAsOnePartition() throws Exception {
        // The layout before partitions: RocksDB directly in the data directory, no stash.layout.
        ShardId id = new ShardId(3, 99, 7);
        byte[] data = bytes(new Random(9), 5000);
        try (ShardStore store = RocksShardStore.open(dir, StashStoreOptions.defaults())) {
            StashEntryInfo info = new StashEntryInfo(id, 0, data.length, Crc32c.of(data), 1);
            store.commit(List.of(new ShardStore.Put(info, Unpooled.wrappedBuffer(EntryFormat.encodeChunkValue(info,
                    Unpooled.wrappedBuffer(data))))));
        }
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withPartitions(4))) {
            try (StashEntry read = await(stash.client.get(stash.address(), id))) {
                assertThat(ByteBufUtil.getBytes(read.data())).isEqualTo(data);
            }
            ShardId another = new ShardId(3, 100, 7);
            await(stash.put(another, 0, data));
            assertThat(await(stash.client.stats(stash.address())).entries()).isEqualTo(2);
        }
        assertThat(dir.resolve("stash.layout")).doesNotExist();
        assertThat(dir.resolve("partition-0")).doesNotExist();
    }
}
