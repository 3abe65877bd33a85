package io.shardvault.pod.internal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ShardId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The sender's linger: partial batches wait for company, full batches go at once. */
@Timeout(60)
class PurgeSenderTest {

    /** Counts deliveries on the way to an in-memory stash. */
    private static final class CountingStash implements StashAccess {
        final InMemoryStash stash = new InMemoryStash();
        final AtomicInteger deliveries = new AtomicInteger();

        @Override
        public InetSocketAddress serverFor(int vaultId, int shardIndex) {
            return stash.serverFor(vaultId, shardIndex);
        }

        @Override
        public CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
            return stash.list(vaultId, shardIndex, after, limit);
        }

        @Override
        public CompletableFuture<Copy> get(ShardId id) {
            return stash.get(id);
        }

        @Override
        public CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids) {
            deliveries.incrementAndGet();
            return stash.purge(server, ids);
        }
    }

    private static PurgeSender sender(PurgeQueue queue, StashAccess stash, int batch, Duration linger) {
        return new PurgeSender("p", queue, stash, batch, Duration.ofMillis(10), Duration.ofMillis(100),
                Duration.ofSeconds(10), linger, new PodMetrics(new SimpleMeterRegistry(), "p"));
    }

    private static void awaitPurged(CountingStash stash, int count) throws InterruptedException {
        for (int i = 0; i < 2_000 && stash.stash.purged().size() < count; i++) {
            Thread.sleep(10);
        }
        assertThat(stash.stash.purged()).hasSize(count);
    }

    @Test
    void eventsOfSeveralFlushesShareOneDeliveryWithinTheLinger(@TempDir Path dir) throws Exception {
        CountingStash stash = new CountingStash();
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC());
             PurgeSender sender = sender(queue, stash, 512, Duration.ofSeconds(2))) {
            sender.start();
            long start = System.nanoTime();
            for (int i = 0; i < 5; i++) {
                queue.append(List.of(new ShardId(1, 100 + i, 0)));
            }
            awaitPurged(stash, 5);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
            assertThat(stash.deliveries.get()).isEqualTo(1);
            // The checkpoint moves just after the stash acknowledged.
            for (int i = 0; i < 2_000 && queue.depth() > 0; i++) {
                Thread.sleep(10);
            }
            assertThat(queue.depth()).isZero();
        }
    }

    @Test
    void aFullBatchGoesAtOnce(@TempDir Path dir) throws Exception {
        CountingStash stash = new CountingStash();
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC());
             PurgeSender sender = sender(queue, stash, 4, Duration.ofSeconds(30))) {
            sender.start();
            queue.append(List.of(new ShardId(1, 1, 0), new ShardId(1, 2, 0), new ShardId(1, 3, 0),
                    new ShardId(1, 4, 0)));
            awaitPurged(stash, 4);
            assertThat(stash.deliveries.get()).isEqualTo(1);
        }
    }

    @Test
    void aBatchThatFillsUpDuringTheLingerGoesAtOnce(@TempDir Path dir) throws Exception {
        CountingStash stash = new CountingStash();
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC());
             PurgeSender sender = sender(queue, stash, 4, Duration.ofMinutes(5))) {
            sender.start();
            queue.append(List.of(new ShardId(1, 1, 0), new ShardId(1, 2, 0)));
            Thread.sleep(300); // the sender is lingering on a partial batch now
            assertThat(stash.deliveries.get()).isZero();
            queue.append(List.of(new ShardId(1, 3, 0), new ShardId(1, 4, 0)));
            awaitPurged(stash, 4); // bounded at 20 s, far inside the 5 minute linger
            assertThat(stash.deliveries.get()).isEqualTo(1);
        }
    }

    @Test
    void anIdleOrLingeringSenderDoesNotReadTheQueue(@TempDir Path dir) throws Exception {
        CountingStash stash = new CountingStash();
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC());
             PurgeSender sender = sender(queue, stash, 512, Duration.ofMillis(1500))) {
            sender.start();
            Thread.sleep(200);
            long idle = queue.peekCount();
            Thread.sleep(1000);
            assertThat(queue.peekCount()).as("reads of an empty queue in a second").isEqualTo(idle);
            queue.append(List.of(new ShardId(1, 1, 0)));
            Thread.sleep(1000);
            assertThat(queue.peekCount()).as("reads while a partial batch lingers").isEqualTo(idle);
            awaitPurged(stash, 1);
            assertThat(stash.deliveries.get()).isEqualTo(1);
        }
    }

    @Test
    void eventsQueuedBeforeARestartAreDeliveredPromptlyAfterItAndTheCheckpointHolds(@TempDir Path dir)
            throws Exception {
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            queue.append(List.of(new ShardId(2, 1, 0), new ShardId(2, 2, 0), new ShardId(2, 3, 0)));
        }
        CountingStash stash = new CountingStash();
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC());
             PurgeSender sender = sender(queue, stash, 512, Duration.ofSeconds(2))) {
            assertThat(queue.depth()).isEqualTo(3);
            sender.start();
            awaitPurged(stash, 3);
            for (int i = 0; i < 2_000 && queue.depth() > 0; i++) {
                Thread.sleep(10);
            }
            assertThat(queue.depth()).isZero();
        }
        try (PurgeQueue queue = PurgeQueue.open(dir, 1 << 20, Clock.systemUTC())) {
            assertThat(queue.depth()).as("delivered events stay delivered after another restart").isZero();
        }
    }
}
