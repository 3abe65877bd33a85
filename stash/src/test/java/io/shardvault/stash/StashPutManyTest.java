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
import io.shardvault.stash.internal.StashWire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** PUT_MANY against a real server: one call, one outcome per chunk. */
@Timeout(120)
class StashPutManyTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashPutManyTest.class);
    private static final int CHUNK = 16 << 10;

    @TempDir
    Path dir;
    StashFixture stash;
    Random random;

    @BeforeEach
    void setUp() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        random = new Random(seed);
        stash = new StashFixture(StashConfig.defaults(dir).withCapacityBytes(8L * CHUNK));
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
    void everyChunkOfOneCallIsStoredAndReadsBackBitExact() {
        List<byte[]> data = new ArrayList<>();
        List<StashPut> puts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] b = bytes(i == 0 ? 0 : CHUNK - i);
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
        byte[] good = bytes(CHUNK);
        byte[] bad = bytes(CHUNK);
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
    void chunksBeyondTheBudgetFailStashFullWhileTheFirstOnesAreStored() {
        List<StashPut> puts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            byte[] b = bytes(CHUNK);
            puts.add(new StashPut(new ShardId(4, 9, i), 0, Crc32c.of(b), Unpooled.wrappedBuffer(b)));
        }

        List<CompletableFuture<Void>> outcomes = stash.client.putAll(stash.address(), puts);

        // The budget holds exactly 8 chunks; the chunks reach the committer in request order.
        for (int i = 0; i < 10; i++) {
            if (i < 8) {
                await(outcomes.get(i));
            } else {
                assertThat(failure(outcomes.get(i)).code()).as("chunk " + i).isEqualTo(ErrorCode.STASH_FULL);
            }
        }
        assertThat(await(stash.client.stats(stash.address())).bytes()).isEqualTo(8L * CHUNK);
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
