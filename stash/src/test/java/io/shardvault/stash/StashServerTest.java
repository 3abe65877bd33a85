package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.stash.api.StashEntry;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.StashPut;
import io.shardvault.stash.api.StashStats;
import io.shardvault.stash.api.internal.StashWire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Client/server round trips of every op against a real server and a real RocksDB. */
@Timeout(120)
class StashServerTest {
    private static final int PUT_MANY_CHUNK = 16 << 10;
    private static final Logger LOG = LoggerFactory.getLogger(StashServerTest.class);

    @TempDir
    Path dir;
    StashFixture stash;
    Random random;

    @BeforeEach
    void setUp() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        random = new Random(seed);
        stash = new StashFixture(StashFixture.config(dir));
    }

    @AfterEach
    void tearDown() {
        stash.close();
    }

    private byte[] bytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    @Test
    void putThenGetReturnsTheBytesAndInfo() {
        ShardId id = new ShardId(3, 42, 7);
        byte[] data = bytes(64 << 10);
        long before = System.currentTimeMillis();
        await(stash.put(id, 1 << 20, data));

        try (StashEntry entry = await(stash.client.get(stash.address(), id))) {
            assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(data);
            assertThat(entry.info().id()).isEqualTo(id);
            assertThat(entry.info().offsetInShard()).isEqualTo(1 << 20);
            assertThat(entry.info().length()).isEqualTo(data.length);
            assertThat(entry.info().crc32c()).isEqualTo(Crc32c.of(data));
            assertThat(entry.info().writtenAtMillis()).isBetween(before, System.currentTimeMillis());
        }
    }

    @Test
    void emptyAndTinyChunksRoundTrip() {
        for (int length : new int[] {0, 1, 100}) {
            ShardId id = new ShardId(1, length, 0);
            byte[] data = bytes(length);
            await(stash.put(id, 0, data));
            try (StashEntry entry = await(stash.client.get(stash.address(), id))) {
                assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(data);
            }
        }
    }

    @Test
    void getOfAnAbsentEntryIsNotFound() {
        assertThat(failure(stash.client.get(stash.address(), new ShardId(1, 2, 3))).code())
                .isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(stash.registry.get("shardvault.stash.requests").tags("op", "get", "outcome", "NOT_FOUND")
                .timer().count()).isEqualTo(1);
    }

    @Test
    void putWithAWrongCrcIsRejectedAndStoresNothing() {
        ShardId id = new ShardId(1, 1, 1);
        byte[] data = bytes(1000);
        CompletableFuture<Void> put = stash.client.put(stash.address(), id, 0, Crc32c.of(data) ^ 1,
                Unpooled.wrappedBuffer(data));
        assertThat(failure(put).code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        assertThat(failure(stash.client.get(stash.address(), id)).code()).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(await(stash.client.stats(stash.address())).entries()).isZero();
    }

    @Test
    void purgeDeletesAndIgnoresUnknownIds() {
        ShardId kept = new ShardId(1, 1, 1);
        ShardId purged = new ShardId(1, 2, 1);
        await(stash.put(kept, 0, bytes(10)));
        await(stash.put(purged, 0, bytes(20)));

        await(stash.client.purge(stash.address(), List.of(purged, new ShardId(9, 9, 9), new ShardId(1, 3, 1))));
        // Again: idempotent.
        await(stash.client.purge(stash.address(), List.of(purged, new ShardId(9, 9, 9))));
        // Only unknown ids.
        await(stash.client.purge(stash.address(), List.of(new ShardId(100, 1, 1))));

        assertThat(failure(stash.client.get(stash.address(), purged)).code()).isEqualTo(ErrorCode.NOT_FOUND);
        try (StashEntry entry = await(stash.client.get(stash.address(), kept))) {
            assertThat(entry.info().length()).isEqualTo(10);
        }
        StashStats stats = await(stash.client.stats(stash.address()));
        assertThat(stats.entries()).isEqualTo(1);
        assertThat(stats.bytes()).isEqualTo(10);
    }

    /**
     * A pod purges its stash copy once its own copy is fsynced, and can do so before the stash stored the PUT
     * (sent at the same time as the pod's write): the PUT is acknowledged then, and not stored, or nothing
     * would ever purge it again.
     */
    @Test
    void aPutArrivingAfterItsPurgeIsAcknowledgedAndNotStored() {
        ShardId late = new ShardId(1, 7, 4);
        ShardId other = new ShardId(1, 8, 4);
        await(stash.client.purge(stash.address(), List.of(late)));

        await(stash.put(late, 0, bytes(1250)));
        await(stash.put(late, 0, bytes(1250)));
        await(stash.put(other, 0, bytes(1250)));

        assertThat(failure(stash.client.get(stash.address(), late)).code()).isEqualTo(ErrorCode.NOT_FOUND);
        assertThat(await(stash.client.stats(stash.address())).entries()).isEqualTo(1);
        assertThat(stash.registry.get("shardvault.stash.puts.after.purge").counter().count()).isEqualTo(2);
    }

    @Test
    void listReturnsOneSlotInKeyOrderWithPaging() {
        List<ShardId> expected = new ArrayList<>();
        for (long file = 10; file > 0; file--) {
            ShardId id = new ShardId(5, file, 2);
            expected.add(0, id);
            await(stash.put(id, file * 100, bytes((int) file)));
            await(stash.put(new ShardId(5, file, 1), 0, bytes(1)));
            await(stash.put(new ShardId(5, file, 3), 0, bytes(1)));
        }
        StashPage first = await(stash.client.list(stash.address(), 5, 2, Optional.empty(), 4));
        assertThat(first.entries()).extracting(StashEntryInfo::id).isEqualTo(expected.subList(0, 4));
        assertThat(first.entries().get(0).offsetInShard()).isEqualTo(100);
        assertThat(first.entries().get(0).length()).isEqualTo(1);
        assertThat(first.next()).contains(expected.get(3));
        StashPage second = await(stash.client.list(stash.address(), 5, 2, first.next(), 4));
        assertThat(second.entries()).extracting(StashEntryInfo::id).isEqualTo(expected.subList(4, 8));
        StashPage last = await(stash.client.list(stash.address(), 5, 2, second.next(), 4));
        assertThat(last.entries()).extracting(StashEntryInfo::id).isEqualTo(expected.subList(8, 10));
        assertThat(last.next()).isEmpty();

        assertThat(await(stash.client.list(stash.address(), 5, 4, Optional.empty(), 4)).entries()).isEmpty();
    }

    @Test
    void statsCountEntriesBytesAndAgeAndSurviveRestart() throws Exception {
        await(stash.put(new ShardId(1, 1, 1), 0, bytes(1000)));
        await(stash.put(new ShardId(2, 1, 1), 0, bytes(3000)));
        // Replacing with the same content changes nothing; with new content, it replaces.
        byte[] again = bytes(500);
        await(stash.put(new ShardId(2, 2, 1), 0, again));
        await(stash.put(new ShardId(2, 2, 1), 0, again));
        await(stash.put(new ShardId(2, 2, 1), 0, bytes(700)));
        Thread.sleep(20);

        StashStats stats = await(stash.client.stats(stash.address()));
        assertThat(stats.entries()).isEqualTo(3);
        assertThat(stats.bytes()).isEqualTo(4700);
        assertThat(stats.capacityBytes()).isEqualTo(stash.config.capacityBytes());
        assertThat(stats.oldestEntryAgeMillis()).isPositive();
        assertThat(stash.registry.get("shardvault.stash.entries").gauge().value()).isEqualTo(3);
        assertThat(stash.registry.get("shardvault.stash.bytes").gauge().value()).isEqualTo(4700);

        stash.restart();
        StashStats reopened = await(stash.client.stats(stash.address()));
        assertThat(reopened.entries()).isEqualTo(3);
        assertThat(reopened.bytes()).isEqualTo(4700);
        assertThat(stash.registry.get("shardvault.stash.entries").gauge().value()).isEqualTo(3);
    }

    @Test
    void manyConcurrentPutsShareCommits() {
        List<CompletableFuture<Void>> puts = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            puts.add(stash.put(new ShardId(1, i, 0), 0, bytes(4096)));
        }
        puts.forEach(StashFixture::await);
        assertThat(await(stash.client.stats(stash.address())).entries()).isEqualTo(500);
        var commits = stash.registry.get("shardvault.stash.commit.ops").summary();
        LOG.info("500 puts took {} commits, {} ops per commit at most", commits.count(), commits.max());
        assertThat(commits.count()).isLessThan(500);
    }
    // PUT_MANY: one call, one outcome per chunk.

    @Test
    void everyChunkOfOneCallIsStoredAndReadsBackBitExact() {
        List<byte[]> data = new ArrayList<>();
        List<StashPut> puts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] b = bytes(i == 0 ? 0 : PUT_MANY_CHUNK - i);
            data.add(b);
            puts.add(new StashPut(new ShardId(2, 77, i), 4096L * i, Crc32c.of(b), Unpooled.wrappedBuffer(b.clone())));
        }
        Timer commits = stash.registry.get("shardvault.stash.commit").timer();
        long commitsBefore = commits.count();

        List<CompletableFuture<Void>> outcomes = stash.client.putAll(stash.address(), puts);

        assertThat(outcomes).hasSize(5);
        outcomes.forEach(StashFixture::await);
        for (int i = 0; i < 5; i++) {
            try (StashEntry entry = await(stash.client.get(stash.address(), new ShardId(2, 77, i)))) {
                assertThat(ByteBufUtil.getBytes(entry.data())).isEqualTo(data.get(i));
                assertThat(entry.info().offsetInShard()).isEqualTo(4096L * i);
            }
        }
        assertThat(commits.count() - commitsBefore).as("group commits for one call of 5 chunks").isBetween(1L, 5L);
    }

    @Test
    void aBadChunkFailsAloneAndTheOthersAreStored() {
        byte[] good = bytes(PUT_MANY_CHUNK);
        byte[] bad = bytes(PUT_MANY_CHUNK);
        List<StashPut> puts = List.of(
                new StashPut(new ShardId(1, 1, 0), 0, Crc32c.of(good), Unpooled.wrappedBuffer(good.clone())),
                new StashPut(new ShardId(1, 1, 1), 0, Crc32c.of(bad) ^ 1, Unpooled.wrappedBuffer(bad.clone())),
                new StashPut(new ShardId(1, 1, 2), 0, Crc32c.of(good), Unpooled.wrappedBuffer(good.clone())));

        List<CompletableFuture<Void>> outcomes = stash.client.putAll(stash.address(), puts);

        await(outcomes.get(0));
        assertThat(failure(outcomes.get(1)).code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH);
        assertThat(failure(outcomes.get(1)).getMessage()).contains("1/1/1");
        await(outcomes.get(2));
        assertThat(failure(stash.client.get(stash.address(), new ShardId(1, 1, 1))).code())
                .isEqualTo(ErrorCode.NOT_FOUND);
    }

    @Test
    void aHeaderThatDisagreesWithItsPayloadIsABadRequest() {
        byte[] b = bytes(100);
        RpcMessage lying = new RpcMessage(StashOps.PUT_MANY, StashWire.encodePutManyHeader(
                io.netty.buffer.ByteBufAllocator.DEFAULT,
                List.of(new StashWire.PutManyEntry(new ShardId(1, 2, 0), 0, Crc32c.of(b), 200))),
                Unpooled.wrappedBuffer(b));
        assertThat(failure(stash.rpc.call(stash.address(), lying)).code()).isEqualTo(ErrorCode.BAD_REQUEST);

        RpcMessage empty = new RpcMessage(StashOps.PUT_MANY, Unpooled.wrappedBuffer(new byte[] {0, 0}),
                Unpooled.EMPTY_BUFFER);
        assertThat(failure(stash.rpc.call(stash.address(), empty)).code()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(await(stash.client.stats(stash.address())).entries()).isZero();
    }

    @Test
    void aCallToNoServerFailsEveryChunk() {
        byte[] b = bytes(10);
        List<CompletableFuture<Void>> outcomes = stash.client.putAll(null,
                List.of(new StashPut(new ShardId(1, 3, 0), 0, Crc32c.of(b), Unpooled.wrappedBuffer(b))));
        assertThat(outcomes).singleElement().satisfies(f -> assertThat(f).isCompletedExceptionally());
    }
}
