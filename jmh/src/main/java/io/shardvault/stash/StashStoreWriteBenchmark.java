package io.shardvault.stash;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.jmh.AbstractBenchmark;
import io.shardvault.pod.PodWriteBenchmark;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.internal.EntryFormat;
import io.shardvault.stash.internal.RocksShardStore;
import io.shardvault.stash.internal.ShardStore;
import io.shardvault.stash.internal.ShardStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One stash partition's store, written as the committer writes it: a batch of {@code chunks}
 * chunk values of {@code chunkBytes} (by default a 1 MiB PUT's share of one of two stash servers:
 * ten 64 KiB chunks) appended and indexed, then synced, and the previous batch purged in the same
 * write, as pods purge a second later. The score is batches per second on this machine's disk; the
 * point of it is the CPU per batch (run with {@code -prof perfnorm} or under {@code perf}), which the
 * chunk log moved out of RocksDB's WAL (docs/STASH.md, "Why a chunk log").
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar StashStoreWriteBenchmark}
 */
@State(Scope.Benchmark)
public class StashStoreWriteBenchmark extends AbstractBenchmark {
    @Param({"65536"})
    public int chunkBytes;

    @Param({"10"})
    public int chunks;

    private Path dir;
    private ShardStore store;
    private byte[] chunk;
    private long nextFile;
    private List<ShardId> previous = List.of();

    @Setup(Level.Trial)
    public void open() throws IOException, ShardStoreException {
        dir = Files.createTempDirectory("stash-store-bench");
        store = RocksShardStore.open(dir, StashStoreOptions.defaults());
        chunk = new byte[chunkBytes];
        new Random(1).nextBytes(chunk);
    }

    @Benchmark
    public void writeSyncAndPurgeThePrevious() throws ShardStoreException {
        List<ShardStore.Mutation> mutations = new ArrayList<>(2 * chunks);
        List<ByteBuf> values = new ArrayList<>(chunks);
        List<ShardId> written = new ArrayList<>(chunks);
        int crc = Crc32c.of(chunk);
        long file = nextFile++;
        for (int i = 0; i < chunks; i++) {
            ShardId id = new ShardId(1, file, i);
            StashEntryInfo info = new StashEntryInfo(id, 0, chunkBytes, crc, System.currentTimeMillis());
            ByteBuf value = EntryFormat.encodeChunkValue(info, Unpooled.wrappedBuffer(chunk),
                    PooledByteBufAllocator.DEFAULT);
            values.add(value);
            written.add(id);
            mutations.add(new ShardStore.Put(info, value));
        }
        previous.forEach(id -> mutations.add(new ShardStore.Delete(id)));
        try {
            store.write(mutations);
        } finally {
            values.forEach(ByteBuf::release);
        }
        store.syncWal();
        previous = written;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        PodWriteBenchmark.deleteTree(dir);
    }
}
