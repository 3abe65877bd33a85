package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashPut;
import io.shardvault.stash.api.StashStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A full stash answers STASH_FULL, counts it, and accepts PUTs again once purges free room. */
@Timeout(120)
class StashCapacityTest {
    private static final int CHUNK = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void fullStashRejectsThenRecoversWhenPurged() throws Exception {
        byte[] data = new byte[CHUNK];
        new Random(1).nextBytes(data);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withCapacityBytes(4L * CHUNK))) {
            for (int i = 0; i < 4; i++) {
                await(stash.put(new ShardId(1, i, 0), 0, data));
            }
            RpcException full = failure(stash.put(new ShardId(1, 4, 0), 0, data));
            assertThat(full.code()).isEqualTo(ErrorCode.STASH_FULL);
            assertThat(full.getMessage()).contains("stash.capacityBytes=" + 4L * CHUNK);
            assertThat(failure(stash.client.get(stash.address(), new ShardId(1, 4, 0))).code())
                    .isEqualTo(ErrorCode.NOT_FOUND);
            assertThat(stash.registry.get("shardvault.stash.full").counter().count()).isEqualTo(1);
            // A retried PUT of a stored entry is not new data: it succeeds even when full.
            await(stash.put(new ShardId(1, 3, 0), 0, data));
            // A small one still fits nowhere either.
            assertThat(failure(stash.put(new ShardId(1, 5, 0), 0, new byte[1])).code())
                    .isEqualTo(ErrorCode.STASH_FULL);

            await(stash.client.purge(stash.address(), List.of(new ShardId(1, 0, 0))));
            await(stash.put(new ShardId(1, 4, 0), 0, data));
            assertThat(await(stash.client.stats(stash.address())).bytes()).isEqualTo(4L * CHUNK);

            // The budget is still exact after a restart: counts are rebuilt from the metadata.
            stash.restart();
            assertThat(failure(stash.put(new ShardId(1, 6, 0), 0, data)).code()).isEqualTo(ErrorCode.STASH_FULL);
        }
    }

    @Test
    void concurrentPutsNeverOvershootTheBudget() throws Exception {
        byte[] data = new byte[CHUNK];
        new Random(2).nextBytes(data);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withCapacityBytes(4L * CHUNK))) {
            List<CompletableFuture<Void>> puts = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                puts.add(stash.put(new ShardId(2, i, i % 3), 0, data));
            }
            int ok = 0;
            for (CompletableFuture<Void> put : puts) {
                try {
                    put.join();
                    ok++;
                } catch (RuntimeException e) {
                    assertThat(RpcException.from(e).code()).isEqualTo(ErrorCode.STASH_FULL);
                }
            }
            assertThat(ok).isEqualTo(4);
            StashStats stats = await(stash.client.stats(stash.address()));
            assertThat(stats.entries()).isEqualTo(4);
            assertThat(stats.bytes()).isEqualTo(4L * CHUNK);
            assertThat(stash.registry.get("shardvault.stash.full").counter().count()).isEqualTo(36);
        }
    }

    @Test
    void putManyChunksBeyondTheBudgetFailStashFullWhileTheFirstOnesAreStored() throws Exception {
        Random random = new Random(5);
        try (StashFixture stash = new StashFixture(StashConfig.defaults(dir).withCapacityBytes(8L * CHUNK))) {
            List<StashPut> puts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                byte[] b = new byte[CHUNK];
                random.nextBytes(b);
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
    }
}
