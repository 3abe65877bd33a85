package io.shardvault.coordinator.catalog.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogStoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog's Ratis state machine: a thin adapter from log entries and queries to
 * the catalog's subjects (see {@link Op}) over a {@link RocksCatalogStore}.
 *
 * <h2>Log entry layout</h2>
 * <pre>
 *  u8 format (1) | i64 leader time, epoch ms | u8 op | 16-byte request id | op fields ({@link CommandDispatcher})
 * </pre>
 * The client sends everything from the op on; the leader prepends format and time in
 * {@link #startTransaction}, so apply reads time from the entry and stays deterministic.
 *
 * <h2>Restart and duplicates</h2>
 * The live DB records the last index it applied, atomically with each entry's writes. Ratis
 * replays from its latest snapshot; entries the DB already holds are skipped. A request id seen
 * within {@link EntryApplier#DEDUP_WINDOW} answers with the stored result instead of applying again, so a
 * client's retry after a leader change never applies twice.
 *
 * <p>Thread-safety: Ratis applies entries and takes snapshots on one thread; queries run on the
 * read executor against RocksDB snapshots, under a read lock that snapshot installation takes
 * for writing while it swaps the DB.
 */
final class CatalogStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogStateMachine.class);

    private final Path dbDir;
    private final CatalogStoreOptions storeOptions;
    private final CheckpointSnapshotStorage snapshots = new CheckpointSnapshotStorage();
    private final ExecutorService readExecutor;
    private final Clock clock;
    private final ReadWriteLock swapLock = new ReentrantReadWriteLock();
    private final Timer applyTimer;
    private final Timer snapshotTimer;
    private final Counter duplicates;
    private final Counter leaderChanges;
    private volatile RocksCatalogStore store;
    /** Entries up to this index were already in the live DB when it was opened. */
    private volatile long skipThrough = -1;
    /** The last index Ratis handed us (applied or skipped); Ratis replays from its snapshot index. */
    private volatile long replayed = -1;

    CatalogStateMachine(Path dbDir, ExecutorService readExecutor, Clock clock, MeterRegistry registry) {
        this(dbDir, CatalogStoreOptions.defaults(), readExecutor, clock, registry, "peer");
    }

    CatalogStateMachine(Path dbDir, CatalogStoreOptions storeOptions, ExecutorService readExecutor, Clock clock,
                        MeterRegistry registry, String peerId) {
        this.dbDir = dbDir;
        this.storeOptions = storeOptions;
        this.readExecutor = readExecutor;
        this.clock = clock;
        // Time from log entry to applied state, per entry.
        this.applyTimer = Timer.builder("shardvault.catalog.apply").description("Applying one catalog log entry to RocksDB")
                .publishPercentiles(0.5, 0.99).register(registry);
        // Time to write one RocksDB checkpoint snapshot.
        this.snapshotTimer = Timer.builder("shardvault.catalog.snapshot").description("Taking one checkpoint snapshot")
                .register(registry);
        // Writes answered from the request-id table instead of being applied again.
        this.duplicates = Counter.builder("shardvault.catalog.apply.duplicates")
                .description("Retried writes answered from the dedup table").register(registry);
        // Leader changes this peer saw (elections won by anyone, and leader losses): a steady
        // cluster has none; a rate above zero means elections, i.e. a slow disk, GC or network.
        this.leaderChanges = Counter.builder("shardvault.catalog.leader.changes").tag("peer", peerId)
                .description("Catalog leader changes seen by this peer").register(registry);
        // The last log index this peer applied.
        // Ratis reads the applied index before initialize(): start from "nothing applied".
        setLastAppliedTermIndex(TermIndex.valueOf(0, -1));
        Gauge.builder("shardvault.catalog.applied.index", this, sm -> sm.getLastAppliedTermIndex() == null ? -1
                : sm.getLastAppliedTermIndex().getIndex()).register(registry);
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return snapshots;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        snapshots.init(raftStorage);
        getLifeCycle().startAndTransition(this::openStore);
    }

    /** Ratis pauses the state machine before it replaces the snapshot directory with an installed one. */
    @Override
    public void pause() {
        if (getLifeCycle().compareAndTransition(org.apache.ratis.util.LifeCycle.State.RUNNING,
                org.apache.ratis.util.LifeCycle.State.PAUSING)) {
            getLifeCycle().transition(org.apache.ratis.util.LifeCycle.State.PAUSED);
        }
    }

    /** Opens the live DB, restoring it from the latest snapshot when that is ahead of it. */
    private void openStore() throws IOException {
        RocksCatalogStore s = RocksCatalogStore.open(dbDir, storeOptions);
        long[] applied = s.lastApplied();
        var snap = snapshots.getLatestSnapshot();
        if (snap != null && applied[1] < snap.getIndex()) {
            LOG.info("catalog DB at index {} is behind snapshot {}: restoring from it", applied[1], snap.getTermIndex());
            s.close();
            restoreFrom(snapshots.latestDir());
            s = RocksCatalogStore.open(dbDir, storeOptions);
            applied = s.lastApplied();
        }
        store = s;
        skipThrough = applied[1];
        var current = snapshots.getLatestSnapshot();
        replayed = current == null ? -1 : current.getIndex();
        if (applied[1] >= 0) {
            setLastAppliedTermIndex(TermIndex.valueOf(applied[0], applied[1]));
        }
        LOG.info("catalog DB {} opened at term/index {}/{}", dbDir, applied[0], applied[1]);
    }

    private void restoreFrom(Path checkpoint) throws IOException {
        CheckpointSnapshotStorage.deleteTree(dbDir);
        Files.createDirectories(dbDir);
        try (Stream<Path> files = Files.list(checkpoint)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".md5")) {
                    continue;
                }
                Path target = dbDir.resolve(name);
                if (name.endsWith(".sst")) {
                    // SST files are immutable: a hard link is a copy.
                    try {
                        Files.createLink(target, f);
                        continue;
                    } catch (IOException | UnsupportedOperationException e) {
                        LOG.debug("hard link of {} failed, copying", f, e);
                    }
                }
                Files.copy(f, target);
            }
        }
    }

    @Override
    public void reinitialize() throws IOException {
        swapLock.writeLock().lock();
        try {
            snapshots.reload();
            Path latest = snapshots.latestDir();
            RocksCatalogStore old = store;
            store = null;
            if (old != null) {
                old.close();
            }
            if (latest != null) {
                LOG.info("installing catalog snapshot {}", latest);
                restoreFrom(latest);
            }
            getLifeCycle().startAndTransition(this::openStore);
        } finally {
            swapLock.writeLock().unlock();
        }
    }

    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        ByteString content = request.getMessage().getContent();
        if (content.size() < 17 || !Op.of(content.byteAt(0) & 0xff).write) {
            throw new IOException("not a catalog write command");
        }
        byte[] header = new Wire.Writer(9).u8(Codec.FORMAT).i64(clock.millis()).toByteArray();
        return TransactionContext.newBuilder().setStateMachine(this).setServerRole(RaftPeerRole.LEADER)
                .setClientRequest(request).setLogData(UnsafeByteOperations.unsafeWrap(header).concat(content)).build();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        long term = entry.getTerm();
        long index = entry.getIndex();
        replayed = index;
        if (index <= skipThrough) {
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        long start = System.nanoTime();
        try {
            byte[] result = EntryApplier.apply(store, term, index,
                    entry.getStateMachineLogEntry().getLogData().toByteArray(), duplicates::increment);
            updateLastAppliedTermIndex(term, index);
            return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(result)));
        } catch (IOException | RuntimeException e) {
            // The DB failed under us: this peer can no longer follow the log. Its future fails; an
            // operator must restart it (it then replays from the last committed batch).
            LOG.error("catalog apply of log index {} failed; this peer's state is stuck", index, e);
            return CompletableFuture.failedFuture(e);
        } finally {
            applyTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        byte[] q = request.getContent().toByteArray();
        return CompletableFuture.supplyAsync(() -> {
            swapLock.readLock().lock();
            try {
                RocksCatalogStore s = store;
                if (s == null) {
                    return Message.valueOf(UnsafeByteOperations.unsafeWrap(
                            CommandDispatcher.error(ErrorCode.UNAVAILABLE, "catalog peer is installing a snapshot")));
                }
                byte[] result;
                try (RocksCatalogStore.View view = s.view()) {
                    Wire.Reader in = new Wire.Reader(q);
                    Op op;
                    try {
                        op = Op.of(in.u8());
                    } catch (IllegalArgumentException e) {
                        return Message.valueOf(UnsafeByteOperations.unsafeWrap(
                                CommandDispatcher.error(ErrorCode.BAD_REQUEST, e.getMessage())));
                    }
                    result = CommandDispatcher.read(op, in, view);
                }
                return Message.valueOf(UnsafeByteOperations.unsafeWrap(result));
            } finally {
                swapLock.readLock().unlock();
            }
        }, readExecutor);
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        leaderChanges.increment();
        LOG.info("catalog leader changed member={} leader={}", groupMemberId, newLeaderId);
    }

    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        // Configuration and metadata entries: they advance the applied index too, except while
        // Ratis replays entries the DB already holds.
        replayed = index;
        if (index > skipThrough) {
            super.notifyTermIndexUpdated(term, index);
        }
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex ti = getLastAppliedTermIndex();
        if (ti == null || ti.getIndex() < 0 || ti.getIndex() > replayed) {
            // Still replaying up to what the DB holds: a checkpoint now would claim an index
            // Ratis has not reached. The next trigger takes it.
            return -1;
        }
        long start = System.nanoTime();
        snapshots.take(store, ti);
        snapshotTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        LOG.info("catalog snapshot taken at {}", ti);
        return ti.getIndex();
    }

    @Override
    public void close() throws IOException {
        swapLock.writeLock().lock();
        try {
            RocksCatalogStore s = store;
            store = null;
            if (s != null) {
                s.close();
            }
        } finally {
            swapLock.writeLock().unlock();
        }
        super.close();
    }
}
