package io.shardvault.stash.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashEntryInfo;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The committer's contract, against an in-memory store whose commits can block or fail. */
@Timeout(30)
class GroupCommitterTest {

    /**
     * An in-memory ShardStore: syncs are gated by a latch; writes and syncs can be made to fail.
     * It keeps what a crash would keep ({@link #durable}: the writes a sync covered) apart from
     * what reads see ({@link #metas}).
     */
    static final class MemoryStore implements ShardStore {
        final Map<ShardId, StashEntryInfo> metas = new TreeMap<>(ShardId.KEY_ORDER);
        final Map<ShardId, StashEntryInfo> durable = new TreeMap<>(ShardId.KEY_ORDER);
        final List<Mutation> unsyncedMutations = new ArrayList<>();
        final List<Integer> commitSizes = new ArrayList<>();
        volatile CountDownLatch gate = new CountDownLatch(0);
        final java.util.concurrent.Semaphore entered = new java.util.concurrent.Semaphore(0);
        final AtomicBoolean fail = new AtomicBoolean();
        final AtomicBoolean failSync = new AtomicBoolean();
        final java.util.concurrent.atomic.AtomicInteger syncs = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void commit(List<Mutation> mutations) throws ShardStoreException {
            write(mutations);
            syncWal();
        }

        @Override
        public void write(List<Mutation> mutations) throws ShardStoreException {
            if (fail.get()) {
                throw new ShardStoreException("write", "disk on fire");
            }
            synchronized (this) {
                commitSizes.add(mutations.size());
                unsyncedMutations.addAll(mutations);
                apply(metas, mutations);
            }
        }

        @Override
        public void syncWal() throws ShardStoreException {
            List<Mutation> covered;
            synchronized (this) {
                covered = new ArrayList<>(unsyncedMutations);
                unsyncedMutations.clear();
            }
            entered.release();
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new ShardStoreException("sync", "interrupted", e);
            }
            if (failSync.get()) {
                throw new ShardStoreException("sync", "disk on fire");
            }
            syncs.incrementAndGet();
            synchronized (this) {
                apply(durable, covered);
            }
        }

        private static void apply(Map<ShardId, StashEntryInfo> map, List<Mutation> mutations) {
            for (Mutation m : mutations) {
                if (m instanceof Put put) {
                    map.put(put.id(), put.info());
                } else {
                    map.remove(m.id());
                }
            }
        }

        @Override
        public synchronized Optional<StashEntryInfo> meta(ShardId id) {
            return Optional.ofNullable(metas.get(id));
        }

        @Override
        public synchronized List<Optional<StashEntryInfo>> metas(List<ShardId> ids) {
            return ids.stream().map(id -> Optional.ofNullable(metas.get(id))).toList();
        }

        @Override
        public Optional<byte[]> chunkValue(ShardId id) {
            return Optional.empty();
        }

        @Override
        public List<StashEntryInfo> listSlot(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
            return List.of();
        }

        @Override
        public synchronized void forEachMeta(Consumer<StashEntryInfo> visitor) {
            metas.values().forEach(visitor);
        }

        @Override
        public void flush() {
        }

        @Override
        public String describe() {
            return "memory";
        }

        @Override
        public void close() {
        }
    }

    private static StashEntryInfo info(long file, int length) {
        return new StashEntryInfo(new ShardId(1, file, 0), 0, length, (int) file, 1);
    }

    private static GroupCommitter committer(MemoryStore store, Occupancy occupancy, long capacity) {
        StashMetrics metrics = new StashMetrics(new SimpleMeterRegistry(), "test", occupancy, capacity,
                Clock.systemUTC());
        GroupCommitter committer = new GroupCommitter("test", store, occupancy, new ByteBudget(capacity, 0), metrics,
                1 << 20, 1 << 20);
        committer.start();
        return committer;
    }

    @Test
    void requestsQueuedDuringASyncAreWrittenMeanwhileAndShareTheNextSync() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        try (GroupCommitter committer = committer(store, occupancy, 1 << 30)) {
            store.gate = new CountDownLatch(1);
            CompletableFuture<Void> first = committer.put(info(0, 10), Unpooled.wrappedBuffer(new byte[10]));
            // Wait until the first commit is blocked in the store, then queue more behind it.
            assertThat(store.entered.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            List<CompletableFuture<Void>> more = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                more.add(committer.put(info(i, 10), Unpooled.wrappedBuffer(new byte[10])));
            }
            // The other thread writes them while the first sync is stuck (pipelining), but acknowledges none.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (store.metas.size() < 21 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(store.metas).hasSize(21);
            Thread.sleep(50);
            assertThat(first).isNotDone();
            assertThat(more).noneMatch(CompletableFuture::isDone);
            assertThat(store.durable).isEmpty();
            store.gate.countDown();
            first.get(10, TimeUnit.SECONDS);
            for (CompletableFuture<Void> f : more) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertThat(store.syncs.get()).isEqualTo(2);
            assertThat(store.durable).hasSize(21);
            assertThat(occupancy.entries()).isEqualTo(21);
            assertThat(occupancy.bytes()).isEqualTo(210);
        }
    }

    /**
     * A purge that finds nothing to delete changes nothing, and with nothing written unsynced the absence
     * it read is durable: it is answered without a sync. Behind a batch still waiting for its sync, it
     * waits for that sync (the absence may be a deletion not yet durable).
     */
    @Test
    void aPurgeOfAbsentIdsNeedsNoSyncOfItsOwnButWaitsForOneUnderWay() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        try (GroupCommitter committer = committer(store, occupancy, 1 << 30)) {
            assertThat(committer.purge(List.of(info(7, 10).id(), info(8, 10).id())).get(10, TimeUnit.SECONDS))
                    .isZero();
            assertThat(store.syncs.get()).as("syncs for a purge of absent ids").isZero();

            committer.put(info(1, 10), Unpooled.wrappedBuffer(new byte[10])).get(10, TimeUnit.SECONDS);
            store.gate = new CountDownLatch(1);
            CompletableFuture<Integer> purged = committer.purge(List.of(info(1, 10).id()));
            assertThat(store.entered.tryAcquire(2, 10, TimeUnit.SECONDS)).isTrue();
            // The deletion of 1 is written and its sync blocked: a purge that now finds 1 absent must wait.
            CompletableFuture<Integer> again = committer.purge(List.of(info(1, 10).id()));
            Thread.sleep(100);
            assertThat(again).as("a purge that read an unsynced deletion").isNotDone();
            store.gate.countDown();
            assertThat(purged.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(again.get(10, TimeUnit.SECONDS)).isZero();
            assertThat(store.durable).doesNotContainKey(info(1, 10).id());
        }
    }

    @Test
    void aFailedCommitFailsItsRequestsChangesNothingAndTheNextOneWorks() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        try (GroupCommitter committer = committer(store, occupancy, 1 << 30)) {
            store.fail.set(true);
            CompletableFuture<Void> failed = committer.put(info(1, 10), Unpooled.wrappedBuffer(new byte[10]));
            assertThat(failed).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
                    .withCauseInstanceOf(ShardStoreException.class);
            assertThat(occupancy.entries()).isZero();
            store.fail.set(false);
            committer.put(info(1, 10), Unpooled.wrappedBuffer(new byte[10])).get(10, TimeUnit.SECONDS);
            assertThat(occupancy.entries()).isEqualTo(1);
        }
    }

    @Test
    void putAndPurgeOfTheSameIdInOneBatchAreAccountedInOrder() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        try (GroupCommitter committer = committer(store, occupancy, 100)) {
            store.gate = new CountDownLatch(1);
            CompletableFuture<Void> blocker = committer.put(info(9, 1), Unpooled.wrappedBuffer(new byte[1]));
            assertThat(store.entered.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> put = committer.put(info(1, 60), Unpooled.wrappedBuffer(new byte[60]));
            CompletableFuture<Integer> purge = committer.purge(List.of(info(1, 60).id(), new ShardId(5, 5, 5)));
            CompletableFuture<Void> fits = committer.put(info(2, 60), Unpooled.wrappedBuffer(new byte[60]));
            store.gate.countDown();
            blocker.get(10, TimeUnit.SECONDS);
            put.get(10, TimeUnit.SECONDS);
            assertThat(purge.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            fits.get(10, TimeUnit.SECONDS);
            assertThat(occupancy.entries()).isEqualTo(2);
            assertThat(occupancy.bytes()).isEqualTo(61);
            assertThat(store.metas).containsOnlyKeys(info(9, 1).id(), info(2, 60).id());
        }
    }

    @Test
    void aFullQueueAnswersBusy() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        StashMetrics metrics = new StashMetrics(new SimpleMeterRegistry(), "test", occupancy, 1 << 30,
                Clock.systemUTC());
        // Bytes count until acknowledged: the blocked PUT's 60 still count while its sync is stuck.
        try (GroupCommitter committer = new GroupCommitter("test", store, occupancy,
                new ByteBudget(1 << 30, 0), metrics, 1 << 20, 150)) {
            committer.start();
            store.gate = new CountDownLatch(1);
            CompletableFuture<Void> blocked = committer.put(info(1, 10), Unpooled.wrappedBuffer(new byte[60]));
            assertThat(store.entered.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> queued = committer.put(info(2, 10), Unpooled.wrappedBuffer(new byte[60]));
            CompletableFuture<Void> refused = committer.put(info(3, 10), Unpooled.wrappedBuffer(new byte[60]));
            assertThat(refused).failsWithin(1, TimeUnit.SECONDS).withThrowableThat().havingCause()
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BUSY));
            store.gate.countDown();
            blocked.get(10, TimeUnit.SECONDS);
            queued.get(10, TimeUnit.SECONDS);
            committer.put(info(3, 10), Unpooled.wrappedBuffer(new byte[60])).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void afterCloseRequestsFailShuttingDown() {
        MemoryStore store = new MemoryStore();
        GroupCommitter committer = committer(store, new Occupancy(), 100);
        committer.close();
        assertThat(committer.put(info(1, 1), Unpooled.wrappedBuffer(new byte[1]))).failsWithin(1, TimeUnit.SECONDS).withThrowableThat()
                .havingCause().isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.SHUTTING_DOWN));
    }

    @Test
    void aFailedSyncFailsTheRequestsItCoveredAndTheNextOneWorks() throws Exception {
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        try (GroupCommitter committer = committer(store, occupancy, 1 << 30)) {
            store.failSync.set(true);
            CompletableFuture<Void> failed = committer.put(info(1, 10), Unpooled.wrappedBuffer(new byte[10]));
            assertThat(failed).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
                    .withCauseInstanceOf(ShardStoreException.class);
            store.failSync.set(false);
            committer.put(info(2, 10), Unpooled.wrappedBuffer(new byte[10])).get(10, TimeUnit.SECONDS);
            assertThat(store.durable).containsOnlyKeys(info(2, 10).id());
        }
    }

    /**
     * The promise, under concurrency: when a PUT's future completes, a sync that started after its
     * write has returned. Acknowledging at write time, or from a sync that began before the write,
     * fails this test.
     */
    @Test
    void everyAcknowledgedPutIsCoveredByACompletedSync() throws Exception {
        long seed = System.nanoTime();
        System.out.println("everyAcknowledgedPutIsCoveredByACompletedSync seed=" + seed);
        java.util.Random random = new java.util.Random(seed);
        MemoryStore store = new MemoryStore();
        Occupancy occupancy = new Occupancy();
        List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
        int writers = 8;
        int perWriter = 300;
        try (GroupCommitter committer = committer(store, occupancy, 1L << 40)) {
            List<Thread> threads = new ArrayList<>();
            List<CompletableFuture<Void>> all = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < writers; w++) {
                long base = (long) w * perWriter;
                int pauseEvery = 1 + random.nextInt(10);
                threads.add(new Thread(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        StashEntryInfo info = info(base + i, 10);
                        CompletableFuture<Void> put = committer.put(info, Unpooled.wrappedBuffer(new byte[10]));
                        all.add(put.thenRun(() -> {
                            synchronized (store) {
                                if (!store.durable.containsKey(info.id())) {
                                    violations.add(info.id() + " acknowledged before a sync covered it");
                                }
                            }
                        }));
                        if (i % pauseEvery == 0) {
                            Thread.yield();
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        }
        assertThat(violations).isEmpty();
        assertThat(store.durable).hasSize(writers * perWriter);
        assertThat(store.syncs.get()).isLessThan(writers * perWriter);
    }
}
