package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.ShardId;
import io.shardvault.pod.api.AgedShard;
import io.shardvault.pod.api.FailedTome;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.fs.CachedRead;
import io.shardvault.common.fs.FileSystemSync;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.TomeConfig;
import io.shardvault.pod.api.WriteMode;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One pod instance without its network face: tomes, the shard store, the flush queue and flusher,
 * the durable purge queue and its sender, and start-up recovery. {@link io.shardvault.pod.PodServer}
 * puts an RPC server in front of it.
 *
 * <pre>
 *  open() ──▶ RECOVERING ──(recovery done)──▶ READY ──close()──▶ CLOSED (pending writes flushed)
 *                                               └──halt()──▶ CLOSED (pending writes abandoned: a crash)
 * </pre>
 *
 * <h2>Assignment</h2>
 * The coordinators tell the instance its slots and stash servers ({@link #assign}, op ASSIGN), from
 * the catalog's cluster map; it persists them ({@link AssignmentFile}) before it answers, and its
 * next start recovers from exactly those, before any coordinator is reachable. It takes a buffered
 * write only when it could recover it: it has an assignment with stash servers that holds the
 * shard's slot; otherwise it answers {@code NOT_RECOVERABLE} and the coordinator writes the chunk
 * durably. An assignment that changes the stash servers, or drops a slot, is refused
 * ({@code CONFLICT}) while buffered writes or purge events still depend on the old one.
 *
 * <h2>Failed tomes</h2>
 * A tome the flusher failed ({@link Tome#markFailed}) is recorded in the state directory
 * ({@link FailedTomeMarker}) and comes up failed at every start until an operator deletes that
 * record. While any tome is failed the instance writes no clean-shutdown marker, so every start
 * runs recovery, and recovery leaves the stash copies of that tome's shards in place: placement is
 * a fixed hash of the shard id over the tome list, so they cannot move to a healthy tome.
 *
 * <p>Thread-safe. Durability: a buffered write is durable once the flusher has fsynced it; a durable
 * write when {@link #write} returns; a purge event once it is in the purge queue; an assignment
 * when {@link #assign} returns.
 */
public final class PodNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodNode.class);

    private final PodConfig config;
    private final List<Tome> tomes;
    private final ShardStore store;
    private final FlushQueue flushQueue;
    private final PurgeQueue purgeQueue;
    private final PurgeEvents purges;
    private final Flusher flusher;
    private final PurgeSender sender;
    private final PodMetrics metrics;
    private final AssignedStash stash;
    private final Scrubber scrubber;
    /**
     * Buffered writes hold it shared from their check of the assignment until their shard is in the
     * flush queue; {@link #assign} holds it exclusively, so it sees every write that relied on the old one.
     */
    private final ReentrantReadWriteLock assignmentLock = new ReentrantReadWriteLock();
    private volatile PodAssignment assignment;

    private PodNode(PodConfig config, List<Tome> tomes, PurgeQueue purgeQueue, PurgeEvents.Log purgeLog,
                    AssignedStash stash, MeterRegistry registry, ScrubFindings findings, ScrubPosition scrubbed,
                    Clock clock) {
        this.config = config;
        this.tomes = tomes;
        this.store = new ShardStore(tomes, config.openShardFiles());
        this.flushQueue = new FlushQueue(Math.max(1L << 20, config.maxUnflushedBytes() / 8));
        this.purgeQueue = purgeQueue;
        this.purges = new PurgeEvents(config.name(), purgeLog);
        this.metrics = new PodMetrics(registry, config.name());
        this.stash = stash;
        this.flusher = new Flusher(config.name(), config.stateDir(), flushQueue, store, purges, stash,
                config.flushInterval(), config.flushBatchShards(), metrics);
        this.sender = new PurgeSender(config.name(), purgeQueue, stash, config.purgeBatchSize(),
                config.purgeRetryMin(), config.purgeRetryMax(), config.purgeSendTimeout(), config.purgeLinger(),
                metrics);
        metrics.bindGauges(flushQueue::unflushedBytes, purgeQueue::depth, purgeQueue::oldestAgeMillis,
                () -> tomes.stream().filter(Tome::failed).count(),
                () -> tomes.stream().filter(t -> t.failed() && !t.recorded()).count());
        this.scrubber = new Scrubber(config.name(), config.stateDir(), store, flushQueue, findings, scrubbed,
                config.scrubBytesPerSecond(), config.scrubInterval(), metrics, clock);
    }

    /**
     * Opens an instance and, if it did not shut down cleanly, recovers it from the stash of its
     * persisted assignment; when this returns it may serve.
     *
     * @param tomeIo the disk under tome {@code i} (the real disk, or a test's crashable one); the
     *     simulated drive is layered on top where the config asks for it
     * @param stash makes the access to an assignment's stash servers; null: the pod never has a stash
     *     (and takes no buffered write)
     */
    public static PodNode open(PodConfig config, IntFunction<TomeIo> tomeIo, StashAccess.Connector stash,
                               MeterRegistry registry, Clock clock) throws IOException {
        return open(config, tomeIo, queue -> queue::append, stash, registry, clock);
    }

    /** Devices already warned about in this process: its pods share them, and one warning says it. */
    private static final Set<String> EXT4_WITHOUT_JOURNAL_WARNED = ConcurrentHashMap.newKeySet();

    private static void warnIfExt4WithoutJournal(String pod, int tome, Path directory) {
        TomeFileSystem.linux().ext4WithoutJournal(directory).filter(EXT4_WITHOUT_JOURNAL_WARNED::add)
                .ifPresent(device -> LOG.warn("pod {} tome {} ({}) is on ext4 without a journal (device {}): after a "
                        + "large deletion each new shard file then costs up to about 0.6 ms more CPU, for up to six "
                        + "minutes. Make tome file systems with ext4's journal, mkfs.ext4's default "
                        + "(docs/OPERATIONS.md, section Tome file systems). Said once per device.", pod, tome, directory,
                        device));
    }

    /** As above, with the purge queue's appends going through {@code purgeLog} (a test's faulty one). */
    static PodNode open(PodConfig config, IntFunction<TomeIo> tomeIo,
                        Function<PurgeQueue, PurgeEvents.Log> purgeLog, StashAccess.Connector stash,
                        MeterRegistry registry, Clock clock) throws IOException {
        // Asked at the start, so that the call's one-off probe never runs on an event loop.
        String noCachedReads = CachedRead.unavailableBecause();
        if (noCachedReads != null) {
            LOG.info("pod {} answers every read on a worker thread (page-cache reads on the event loop are "
                    + "unavailable: {})", config.name(), noCachedReads);
        }
        List<Tome> tomes = new ArrayList<>();
        for (int i = 0; i < config.tomes().size(); i++) {
            TomeConfig t = config.tomes().get(i);
            Files.createDirectories(t.directory());
            TomeIo io = tomeIo.apply(i);
            if (t.simulatedHdd()) {
                io = new SimulatedHddTomeIo(io, config.simulatedHddSeed() + i);
                LOG.info("pod {} tome {} ({}) uses a SIMULATED 7,200 RPM disk for fsync", config.name(), i,
                        t.directory());
            }
            TomeStamp.check(io, t.directory().toAbsolutePath().normalize(), config.name(), i);
            warnIfExt4WithoutJournal(config.name(), i, t.directory());
            Tome tome = new Tome(i, t.directory(), io);
            if (tome.fileSystemSync() == null) {
                String why = FileSystemSync.unavailableBecause();
                LOG.info("pod {} {} flushes with an fdatasync per file{}", config.name(), tome,
                        why == null ? "" : " (syncfs unavailable: " + why + ")");
            }
            Optional<FailedTomeMarker.Entry> failed = FailedTomeMarker.read(config.stateDir(), i);
            if (failed.isPresent()) {
                tome.markFailed(failed.get().reason(), failed.get().failedAt());
                tome.markRecorded();
                LOG.error("pod {}: {} is FAILED: {}. It takes no writes and its shards' stash copies are kept; "
                        + "replace the disk and delete the record to bring it back (docs/OPERATIONS.md)",
                        config.name(), tome, describe(config.stateDir(), tome));
            }
            tomes.add(tome);
        }
        Optional<PodAssignment> assigned = AssignmentFile.read(config.stateDir());
        PurgeQueue queue = PurgeQueue.open(config.stateDir().resolve("purge"), config.purgeSegmentBytes(), clock);
        AssignedStash assignedStash = new AssignedStash(stash);
        PodNode node = new PodNode(config, tomes, queue, purgeLog.apply(queue), assignedStash, registry,
                ScrubFindings.open(config.stateDir(), clock.millis()), ScrubPosition.read(config.stateDir()), clock);
        try {
            assigned.ifPresent(a -> {
                assignedStash.connect(a.stashServers());
                node.assignment = a;
            });
            boolean clean = CleanShutdownMarker.consume(config.stateDir());
            node.flusher.start();
            if (assigned.isEmpty()) {
                LOG.info("pod {} has no assignment yet: it takes durable writes only until a coordinator assigns it",
                        config.name());
            } else if (!assignedStash.available()) {
                LOG.info("pod {} is assigned {}: no stash, so no recovery and durable writes only", config.name(),
                        assigned.get());
            } else if (clean) {
                LOG.info("pod {} shut down cleanly with nothing unflushed: no recovery needed", config.name());
            } else {
                new StashRecovery(config.name(), node.store, assignedStash, queue, config.recoveryTimeout(),
                        node.metrics).recover(assigned.get().slots());
            }
            node.sender.start();
        } catch (IOException | RuntimeException e) {
            node.halt();
            throw e;
        }
        return node;
    }

    /** Opens an instance on the real disk. */
    public static PodNode open(PodConfig config, StashAccess.Connector stash, MeterRegistry registry)
            throws IOException {
        return open(config, i -> DirectTomeIo.INSTANCE, stash, registry, Clock.systemUTC());
    }

    public PodConfig config() {
        return config;
    }

    ShardStore store() {
        return store;
    }

    /** The path of a shard's file (for tests that damage it). */
    public Path pathOf(ShardId id) {
        return store.pathOf(id);
    }

    /**
     * Stores a chunk; see {@link ShardStore#write}. Buffered writes past the unflushed limit are made
     * durable; a buffered write the instance could not recover is refused ({@code NOT_RECOVERABLE}).
     */
    public void write(ShardId id, long offsetInShard, int crc32c, ByteBuf chunk, WriteMode mode) throws IOException {
        if (mode == WriteMode.DURABLE) {
            store(id, offsetInShard, crc32c, chunk, mode);
            return;
        }
        assignmentLock.readLock().lock();
        try {
            String why = whyNotRecoverable(id);
            if (why != null) {
                metrics.bufferedRefused();
                throw new ShardStoreException(ErrorCode.NOT_RECOVERABLE, "pod " + config.name() + " cannot recover "
                        + "a buffered write of shard " + id + " after a crash (" + why + "): write it durably");
            }
            store(id, offsetInShard, crc32c, chunk, mode);
        } finally {
            assignmentLock.readLock().unlock();
        }
    }

    /** Why a buffered write of {@code id} could not be recovered, or null when it could. */
    private String whyNotRecoverable(ShardId id) {
        PodAssignment a = assignment;
        if (a == null) {
            return "no coordinator has assigned it slots and stash servers yet";
        }
        if (!stash.available()) {
            return "its assignment has no stash servers";
        }
        if (!a.holds(id.vaultId(), id.shardIndex())) {
            return "slot " + id.vaultId() + ":" + id.shardIndex() + " is not among its assigned slots " + a.slots();
        }
        return null;
    }

    private void store(ShardId id, long offsetInShard, int crc32c, ByteBuf chunk, WriteMode mode) throws IOException {
        long start = System.nanoTime();
        boolean durable = mode == WriteMode.DURABLE || flushQueue.unflushedBytes() >= config.maxUnflushedBytes();
        ShardStore.WriteOutcome outcome;
        try {
            outcome = store.write(id, offsetInShard, crc32c, chunk, durable);
        } catch (ShardStoreException e) {
            if (e.code() == ErrorCode.CHECKSUM_MISMATCH) {
                metrics.crcFailureOnWrite();
            }
            throw e;
        }
        if (mode == WriteMode.BUFFERED) {
            if (durable) {
                // Made durable for backpressure: still owes the stash its purge.
                flushQueue.add(outcome.tome(), id, 0, false);
            } else {
                flushQueue.add(outcome.tome(), id, outcome.bytesWritten(), outcome.newFile());
            }
        }
        metrics.write(mode == WriteMode.DURABLE, System.nanoTime() - start);
    }

    /** Reads a CRC-verified range; see {@link ShardStore#read}. */
    public ByteBuf read(ShardId id, long offset, int length, ByteBufAllocator alloc) throws IOException {
        metrics.readByWorker();
        try {
            return store.read(id, offset, length, alloc);
        } catch (ShardStoreException e) {
            if (e.code() == ErrorCode.CORRUPT) {
                metrics.crcFailureOnRead();
            }
            throw e;
        }
    }

    /** {@link #read}, if it needs no wait for the disk; else null. See {@link ShardStore#readIfCached}. */
    public ByteBuf readIfCached(ShardId id, long offset, int length, ByteBufAllocator alloc) throws IOException {
        ByteBuf data = store.readIfCached(id, offset, length, alloc);
        if (data != null) {
            metrics.readAtOnce();
        }
        return data;
    }

    /** Deletes a shard, idempotently; true if it existed. A never-flushed shard's stash copy is purged too. */
    public boolean delete(ShardId id) throws IOException {
        boolean existed = store.delete(id);
        if (flushQueue.discard(id)) {
            purges.queue(List.of(id));
        }
        return existed;
    }

    /**
     * Takes a new assignment: persists it (durably) and uses it from now on; the same one again is a
     * no-op.
     *
     * @throws ShardStoreException CONFLICT when it changes the stash servers or drops a slot while
     *     unflushed shards or undelivered purge events depend on the current one (their stash copies
     *     are on the current servers, and recovery lists only assigned slots)
     */
    public void assign(PodAssignment next) throws IOException {
        assignmentLock.writeLock().lock();
        try {
            PodAssignment current = assignment;
            if (next.equals(current)) {
                return;
            }
            if (current != null && (!current.sameStash(next) || !next.slots().containsAll(current.slots()))) {
                long unflushed = flushQueue.size();
                long backlog = purgeQueue.depth() + purges.held();
                if (unflushed > 0 || backlog > 0) {
                    throw new ShardStoreException(ErrorCode.CONFLICT, "pod " + config.name() + " refuses the "
                            + "assignment (" + next + "): it would change its stash servers or drop a slot while "
                            + unflushed + " unflushed shards and " + backlog + " undelivered purge events depend on "
                            + "the current one (" + current + "); it takes durable writes only until they are "
                            + "flushed and delivered");
                }
            }
            AssignmentFile.write(config.stateDir(), next);
            stash.connect(next.stashServers());
            assignment = next;
            LOG.info("pod {} assigned: {}", config.name(), next);
        } finally {
            assignmentLock.writeLock().unlock();
        }
    }

    /** The current assignment, if a coordinator assigned one (now or before a restart). */
    public Optional<PodAssignment> assignment() {
        return Optional.ofNullable(assignment);
    }

    public List<ShardId> list(Optional<ShardId> after, int limit) throws IOException {
        return store.list(after, limit);
    }

    /**
     * As {@link #list}, with each shard's age by this host's wall clock, the clock its file system stamps
     * modification times with (so no injected clock: the two must agree). For the orphan collector.
     */
    public List<AgedShard> listAged(Optional<ShardId> after, int limit) throws IOException {
        return store.listAged(after, limit, System.currentTimeMillis());
    }

    public PodStats stats() throws IOException {
        long usable = 0;
        for (Tome t : tomes) {
            usable += t.usableSpace();
        }
        PodAssignment a = assignment;
        List<FailedTome> failed = tomes.stream().filter(Tome::failed).map(t -> new FailedTome(t.index(),
                t.directory().toString(), t.failedAt().toEpochMilli(), t.failure(), t.recorded())).toList();
        return new PodStats(flushQueue.unflushedBytes(), flushQueue.size(), purgeQueue.depth(),
                purgeQueue.oldestAgeMillis(), tomes.size(), usable,
                a == null ? PodAssignment.UNASSIGNED : a.fingerprint(), failed, Optional.of(scrubber.status()));
    }

    /**
     * The failed tomes, each as {@code tome <index> (<directory>): <reason> (failed at <instant>;
     * recorded in <file>)}; empty while all are healthy. A failed tome takes no writes, and its
     * shards' stash copies are kept until an operator clears it ({@link FailedTomeMarker}).
     */
    public List<String> failedTomes() {
        return tomes.stream().filter(Tome::failed).map(t -> t + ": " + describe(config.stateDir(), t)).toList();
    }

    private static String describe(Path stateDir, Tome t) {
        String at = t.failedAt().equals(java.time.Instant.EPOCH) ? "an unknown time" : t.failedAt().toString();
        Path record = stateDir.resolve(FailedTomeMarker.name(t.index()));
        return t.failure() + " (failed at " + at + "; "
                + (t.recorded() ? "recorded in " + record : "NOT recorded: " + record + " could not be written") + ")";
    }

    /** Closes cleanly: pending writes are flushed and their purges queued; the sender stops. */
    @Override
    public void close() {
        shutdown(true);
    }

    /** Stops without flushing what is pending, as a crash would (the files stay as they are). */
    public void halt() {
        shutdown(false);
    }

    private void shutdown(boolean flush) {
        scrubber.close();
        flusher.close(flush);
        sender.close();
        boolean purgesQueued = purges.retryHeld();
        for (Tome t : tomes) {
            t.close();
        }
        store.close();
        try {
            purgeQueue.close();
        } catch (IOException e) {
            LOG.warn("pod {}: closing the purge queue failed", config.name(), e);
        }
        List<Tome> failed = tomes.stream().filter(Tome::failed).toList();
        List<Tome> unrecorded = failed.stream().filter(t -> !t.recorded()).toList();
        if (!unrecorded.isEmpty()) {
            LOG.error("pod {}: {} failed and the state directory {} refused their failure records: the next start "
                    + "would trust them and purge their shards' stash copies. Before starting the pod again, fix the "
                    + "state directory and write the records by hand (docs/OPERATIONS.md, \"A failed tome\")",
                    config.name(), unrecorded, config.stateDir());
        }
        if (flush && !failed.isEmpty()) {
            LOG.error("pod {}: {} failed; not recording a clean shutdown, so the next start runs recovery (which "
                    + "keeps the stash copies of the failed tomes' shards)", config.name(), failed);
        } else if (flush && !purgesQueued) {
            LOG.error("pod {}: {} purge events could not be queued; not recording a clean shutdown, so the next start "
                    + "recovers from the stash and queues them again", config.name(), purges.held());
        } else if (flush && flushQueue.isEmpty()) {
            try {
                CleanShutdownMarker.write(config.stateDir());
            } catch (IOException e) {
                LOG.warn("pod {}: cannot record the clean shutdown; the next start will recover", config.name(), e);
            }
        }
    }

    /**
     * The instance's scrubber, for the process's {@link ScrubLane} to run (the node runs none itself).
     * Remove it from the lane before closing the node.
     */
    public Scrubber scrubber() {
        return scrubber;
    }

    /**
     * Forgets, durably, the scrub findings numbered up to {@code ackThrough} and returns the oldest
     * {@code limit} still held (op SCRUB_FINDINGS).
     */
    public List<ScrubFinding> scrubFindings(long ackThrough, int limit) throws IOException {
        return scrubber.findings(ackThrough, limit);
    }

    /** Scrub findings held, not yet acknowledged. */
    public int heldScrubFindings() {
        return scrubber.heldFindings();
    }

    /** Makes the purge sender retry its deliveries at once; false when the pod runs without a stash. */
    public boolean retryPurgesNow() {
        if (!stash.available()) {
            return false;
        }
        sender.retryNow();
        return true;
    }

    /** Purge events queued and not yet delivered. */
    public long purgeQueueDepth() {
        return purgeQueue.depth();
    }

    /** Bytes written in buffered mode and not yet fsynced. */
    public long unflushedBytes() {
        return flushQueue.unflushedBytes();
    }
}
