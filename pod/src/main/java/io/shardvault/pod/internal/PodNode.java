package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.ShardId;
import io.shardvault.pod.PodConfig;
import io.shardvault.pod.PodStats;
import io.shardvault.pod.TomeConfig;
import io.shardvault.pod.WriteMode;
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
 * <p>Thread-safe. Durability: a buffered write is durable once the flusher has fsynced it; a durable
 * write when {@link #write} returns; a purge event once it is in the purge queue.
 */
public final class PodNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodNode.class);

    private final PodConfig config;
    private final List<Tome> tomes;
    private final ShardStore store;
    private final FlushQueue flushQueue;
    private final PurgeQueue purgeQueue;
    private final Flusher flusher;
    private final PurgeSender sender;
    private final PodMetrics metrics;
    private final boolean hasStash;

    private PodNode(PodConfig config, List<Tome> tomes, PurgeQueue purgeQueue, StashAccess stash,
                    MeterRegistry registry) {
        this.config = config;
        this.tomes = tomes;
        this.store = new ShardStore(tomes);
        this.flushQueue = new FlushQueue(Math.max(1L << 20, config.maxUnflushedBytes() / 8));
        this.purgeQueue = purgeQueue;
        this.metrics = new PodMetrics(registry, config.name());
        this.hasStash = stash != null;
        this.flusher = new Flusher(config.name(), flushQueue, store, hasStash ? purgeQueue : null, stash,
                config.flushInterval(), config.flushBatchShards(), metrics);
        this.sender = hasStash ? new PurgeSender(config.name(), purgeQueue, stash, config.purgeBatchSize(),
                config.purgeRetryMin(), config.purgeRetryMax(), config.purgeSendTimeout(), config.purgeLinger(),
                metrics) : null;
        metrics.bindGauges(flushQueue::unflushedBytes, purgeQueue::depth, purgeQueue::oldestAgeMillis,
                () -> tomes.stream().filter(Tome::failed).count());
    }

    /**
     * Opens an instance and recovers it from the stash; when this returns it may serve.
     *
     * @param tomeIo the disk under tome {@code i} (the real disk, or a test's crashable one); the
     *     simulated drive is layered on top where the config asks for it
     * @param stash the stash, or null to run without one (no recovery, no purges)
     */
    public static PodNode open(PodConfig config, IntFunction<TomeIo> tomeIo, StashAccess stash,
                               MeterRegistry registry, Clock clock) throws IOException {
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
            tomes.add(new Tome(i, t.directory(), io));
        }
        PurgeQueue queue = PurgeQueue.open(config.stateDir().resolve("purge"), config.purgeSegmentBytes(), clock);
        PodNode node = new PodNode(config, tomes, queue, stash, registry);
        try {
            boolean clean = CleanShutdownMarker.consume(config.stateDir());
            node.flusher.start();
            if (node.hasStash && !config.slots().isEmpty()) {
                if (clean) {
                    LOG.info("pod {} shut down cleanly with nothing unflushed: no recovery needed", config.name());
                } else {
                    new StashRecovery(config.name(), node.store, stash, queue, config.recoveryTimeout(),
                            node.metrics).recover(config.slots());
                }
            }
            if (node.sender != null) {
                node.sender.start();
            }
        } catch (IOException | RuntimeException e) {
            node.halt();
            throw e;
        }
        return node;
    }

    /** Opens an instance on the real disk. */
    public static PodNode open(PodConfig config, StashAccess stash, MeterRegistry registry) throws IOException {
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

    /** Stores a chunk; see {@link ShardStore#write}. Buffered writes past the unflushed limit are made durable. */
    public void write(ShardId id, long offsetInShard, int crc32c, ByteBuf chunk, WriteMode mode) throws IOException {
        long start = System.nanoTime();
        boolean durable = mode == WriteMode.DURABLE || flushQueue.unflushedBytes() >= config.maxUnflushedBytes();
        ShardStore.WriteOutcome outcome;
        try {
            outcome = store.write(id, offsetInShard, crc32c, chunk, durable);
        } catch (ShardStoreException e) {
            if (e.code() == io.shardvault.common.ErrorCode.CHECKSUM_MISMATCH) {
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
        try {
            return store.read(id, offset, length, alloc);
        } catch (ShardStoreException e) {
            if (e.code() == io.shardvault.common.ErrorCode.CORRUPT) {
                metrics.crcFailureOnRead();
            }
            throw e;
        }
    }

    /** Deletes a shard, idempotently; true if it existed. A never-flushed shard's stash copy is purged too. */
    public boolean delete(ShardId id) throws IOException {
        boolean existed = store.delete(id);
        if (flushQueue.discard(id) && hasStash) {
            purgeQueue.append(List.of(id));
        }
        return existed;
    }

    public List<ShardId> list(Optional<ShardId> after, int limit) throws IOException {
        return store.list(after, limit);
    }

    public PodStats stats() throws IOException {
        long usable = 0;
        for (Tome t : tomes) {
            usable += t.usableSpace();
        }
        return new PodStats(flushQueue.unflushedBytes(), flushQueue.size(), purgeQueue.depth(),
                purgeQueue.oldestAgeMillis(), tomes.size(), usable);
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
        flusher.close(flush);
        if (sender != null) {
            sender.close();
        }
        for (Tome t : tomes) {
            t.close();
        }
        try {
            purgeQueue.close();
        } catch (IOException e) {
            LOG.warn("pod {}: closing the purge queue failed", config.name(), e);
        }
        if (flush && flushQueue.isEmpty()) {
            try {
                CleanShutdownMarker.write(config.stateDir());
            } catch (IOException e) {
                LOG.warn("pod {}: cannot record the clean shutdown; the next start will recover", config.name(), e);
            }
        }
    }

    /** Makes the purge sender retry its deliveries at once; false when the pod runs without a stash. */
    public boolean retryPurgesNow() {
        if (sender == null) {
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
