package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashEntry;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.StashStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many concurrent PUTs (new ids, retries, replacements), PURGEs and GETs over a small id space,
 * with a budget small enough to be hit: afterwards the in-memory counts equal a recount from disk
 * (a restart), and what LIST shows is exactly what GET serves.
 */
@Timeout(120)
class StashConcurrencyTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashConcurrencyTest.class);
    private static final int IDS = 300;

    @TempDir
    Path dir;

    @Test
    void countsStayExactUnderConcurrentMixedRequests() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        StashConfig config = StashConfig.defaults(dir).withCapacityBytes(1L << 20);
        try (StashFixture stash = new StashFixture(config)) {
            Semaphore inFlight = new Semaphore(64);
            List<CompletableFuture<?>> all = new ArrayList<>();
            int full = 0;
            for (int i = 0; i < 2000; i++) {
                inFlight.acquire();
                ShardId id = new ShardId(1, random.nextInt(IDS), random.nextInt(3));
                CompletableFuture<?> op;
                int kind = random.nextInt(10);
                if (kind < 6) {
                    // A small set of contents per id, so that retries (same content) happen often.
                    byte[] bytes = new byte[1 + new Random(id.fileId() * 7 + random.nextInt(2)).nextInt(32 << 10)];
                    new Random(bytes.length).nextBytes(bytes);
                    op = stash.client.put(stash.address(), id, 0, Crc32c.of(bytes), Unpooled.wrappedBuffer(bytes));
                } else if (kind < 9) {
                    List<ShardId> ids = new ArrayList<>();
                    for (int j = random.nextInt(5); j >= 0; j--) {
                        ids.add(new ShardId(1, random.nextInt(IDS + 50), random.nextInt(3)));
                    }
                    op = stash.client.purge(stash.address(), ids);
                } else {
                    op = stash.client.get(stash.address(), id).thenAccept(StashEntry::close);
                }
                CompletableFuture<?> tracked = op.handle((ok, failure) -> {
                    inFlight.release();
                    if (failure != null) {
                        ErrorCode code = RpcException.from(failure).code();
                        if (code != ErrorCode.STASH_FULL && code != ErrorCode.NOT_FOUND) {
                            throw new AssertionError("unexpected failure " + failure, failure);
                        }
                        return code == ErrorCode.STASH_FULL;
                    }
                    return false;
                });
                all.add(tracked);
            }
            for (CompletableFuture<?> f : all) {
                if (Boolean.TRUE.equals(f.join())) {
                    full++;
                }
            }
            StashStats before = await(stash.client.stats(stash.address()));
            LOG.info("{} entries, {} bytes, {} PUTs answered STASH_FULL", before.entries(), before.bytes(), full);
            assertThat(before.bytes()).isLessThanOrEqualTo(config.capacityBytes());

            long listedEntries = 0;
            long listedBytes = 0;
            for (int shard = 0; shard < 3; shard++) {
                Optional<ShardId> after = Optional.empty();
                do {
                    StashPage page = await(stash.client.list(stash.address(), 1, shard, after, 97));
                    for (StashEntryInfo info : page.entries()) {
                        listedEntries++;
                        listedBytes += info.length();
                        try (StashEntry entry = await(stash.client.get(stash.address(), info.id()))) {
                            assertThat(entry.info()).isEqualTo(info);
                        }
                    }
                    after = page.next();
                } while (after.isPresent());
            }
            assertThat(listedEntries).isEqualTo(before.entries());
            assertThat(listedBytes).isEqualTo(before.bytes());

            stash.restart();
            StashStats after = await(stash.client.stats(stash.address()));
            assertThat(after.entries()).isEqualTo(before.entries());
            assertThat(after.bytes()).isEqualTo(before.bytes());
        }
    }
}
