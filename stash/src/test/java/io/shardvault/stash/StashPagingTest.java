package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.StashPlacement;
import io.shardvault.stash.internal.EntryFormat;
import io.shardvault.stash.internal.RocksShardStore;
import io.shardvault.stash.internal.ShardStore;
import io.shardvault.stash.internal.StashLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paging through 100,000 entries of one pod slot returns each exactly once, in key order, while
 * entries of the neighbouring slots (before and after it in key order) are interleaved with it.
 * The entries are loaded straight into the store in big batches to keep the test fast; listing
 * goes through the server.
 */
@Timeout(180)
class StashPagingTest {
    private static final Logger LOG = LoggerFactory.getLogger(StashPagingTest.class);
    private static final int VAULT = 7;
    private static final int SHARD = 3;
    private static final int TARGET_ENTRIES = 100_000;

    @TempDir
    Path dir;

    @Test
    void pagingReturnsEverySlotEntryExactlyOnce() throws Exception {
        long seed = System.nanoTime();
        LOG.info("seed={}", seed);
        Random random = new Random(seed);
        StashConfig config = StashConfig.defaults(dir);

        Set<Long> targetFiles = new HashSet<>(List.of(0L, Long.MAX_VALUE));
        while (targetFiles.size() < TARGET_ENTRIES) {
            targetFiles.add(random.nextLong() & Long.MAX_VALUE);
        }
        List<ShardId> all = new ArrayList<>();
        for (long file : targetFiles) {
            all.add(new ShardId(VAULT, file, SHARD));
            // Neighbours in key order, some with the very same fileId.
            if (random.nextInt(3) == 0) {
                int[][] slots = {{VAULT, SHARD - 1}, {VAULT, SHARD + 1}, {VAULT - 1, SHARD}, {VAULT + 1, SHARD},
                    {VAULT - 1, 255}, {VAULT, 0}};
                int[] slot = slots[random.nextInt(slots.length)];
                all.add(new ShardId(slot[0], random.nextBoolean() ? file : random.nextLong() & Long.MAX_VALUE,
                        slot[1]));
            }
        }
        Collections.shuffle(all, random);
        long start = System.nanoTime();
        // Loaded straight into the partitions' databases, where the server will look for each id: the
        // slot's entries are spread over every partition, so each page merges them.
        StashLayout layout = StashLayout.open(config.dataDir(), config.partitions());
        assertThat(layout.partitions()).isGreaterThan(1);
        for (int p = 0; p < layout.partitions(); p++) {
            int partition = p;
            try (ShardStore store = RocksShardStore.open(layout.partitionDirs().get(p),
                    config.store().perPartition(layout.partitions()))) {
                byte[] chunk = {1, 2, 3, 4};
                List<ShardStore.Mutation> batch = new ArrayList<>();
                for (ShardId id : all) {
                    if (StashPlacement.partitionOf(id, layout.partitions()) != partition) {
                        continue;
                    }
                    StashEntryInfo info = new StashEntryInfo(id, 0, chunk.length, Crc32c.of(chunk), 1);
                    batch.add(new ShardStore.Put(info, Unpooled.wrappedBuffer(EntryFormat.encodeChunkValue(info,
                            Unpooled.wrappedBuffer(chunk)))));
                    if (batch.size() == 10_000) {
                        store.commit(batch);
                        batch.clear();
                    }
                }
                store.commit(batch);
            }
        }
        LOG.info("loaded {} entries in {} ms", all.size(), (System.nanoTime() - start) / 1_000_000);

        try (StashFixture stash = new StashFixture(config)) {
            assertThat(await(stash.client.stats(stash.address())).entries()).isEqualTo(all.size());
            List<Long> listed = new ArrayList<>(TARGET_ENTRIES);
            Optional<ShardId> after = Optional.empty();
            int pages = 0;
            start = System.nanoTime();
            do {
                // Page sizes vary, and some ask for more than the server's page cap.
                int limit = random.nextInt(10) == 0 ? 50_000 : 1 + random.nextInt(5_000);
                StashPage page = await(stash.client.list(stash.address(), VAULT, SHARD, after, limit));
                assertThat(page.entries().size()).isLessThanOrEqualTo(Math.min(limit, config.maxListEntries()));
                for (StashEntryInfo info : page.entries()) {
                    assertThat(info.id().vaultId()).isEqualTo(VAULT);
                    assertThat(info.id().shardIndex()).isEqualTo(SHARD);
                    listed.add(info.id().fileId());
                }
                after = page.next();
                pages++;
                assertThat(pages).isLessThan(TARGET_ENTRIES);
            } while (after.isPresent());
            LOG.info("listed {} entries in {} pages in {} ms", listed.size(), pages,
                    (System.nanoTime() - start) / 1_000_000);

            List<Long> expected = new ArrayList<>(targetFiles);
            Collections.sort(expected);
            assertThat(listed).isEqualTo(expected);
        }
    }
}
