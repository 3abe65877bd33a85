package io.shardvault.coordinator.repair;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PodRebuildJob.State;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultLayout;
import io.shardvault.coordinator.store.StoredFiles;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of pod rebuild jobs (issue #20, section 3), one or several pods of a vault in one walk: walks the vault's live files in file id order
 * from the job's checkpoint ({@link Catalog#listFiles}), merged with the pod's own listing of its slot
 * ({@link PodRebuildCursor}), and rebuilds each shard the pod lacks with {@link ShardRebuild} (read
 * through the data path with the pod asked last, encoded again, written durably), throttled by its rate
 * limiter, {@code concurrency} shards at a time (each waits on reads from the other pods and a durable
 * write; the position still moves in file order). A shard the pod lists is skipped without a read: written since the job started, or rebuilt
 * before a restart.
 *
 * <p><b>Checkpoints and the shards that may be partial.</b> The position (the last file done) and the
 * counters go to the catalog every {@code checkpointFiles} files or {@code checkpointInterval}, and at
 * the end. A run that stopped between two checkpoints (its coordinator died, lost the lead, was closed)
 * may have left the shards it was rebuilding at once ({@code concurrency} of them at most) half written
 * after the checkpoint, which the pod lists like whole ones. So a run checks the first {@code
 * checkpointFiles + concurrency} files it walks: a listed shard counts as present only if
 * its last chunk reads back from the pod (the pod verifies its CRC32C, and {@link ShardRebuild} writes
 * stripes in order, each only after the one before was acknowledged). A shard recorded missing at its
 * write is checked the same way wherever it lies.
 *
 * <p><b>Decommission</b> (a job that {@linkplain PodRebuildJob#copies() copies}): the walk is the same,
 * onto the job's target (the replacement, not yet in the vault map) instead of the map's pod, and each
 * missing shard is copied from the job's source (the pod being retired, still the map's, still serving)
 * with {@link ShardRebuild#copy}: one pod's read instead of k. A shard the source cannot give (missing,
 * cut short, corrupt) is decoded from the others onto the target instead. A shard neither copied nor
 * decoded is counted as a failure but not queued for repair (the queue repairs the map's pod, the source,
 * whose shard may be fine): the catch-up rebuild after the map switch recreates it.
 *
 * <p>A shard that cannot be rebuilt (too few good chunks now) is queued for repair ({@code
 * rebuild-failed}: the repair worker retries it with its back-off) and counted; the walk goes on. A
 * repair of the same shard running at the same time is harmless: both rewrite the whole shard with the
 * same bytes, and whichever fails leaves the shard queued.
 *
 * <p><b>Several pods at once</b> (the pods of a lost host): the walk is shared, and each file's shards
 * that its pods lack are decoded together, from one read of its stripes (k chunks read for every stripe,
 * whatever the number of shards rebuilt from them). Each job keeps its own position, counters and
 * checkpoints; a file at or before a job's position is not walked again for it.
 *
 * <p>A decommission whose source does not answer (unreachable, out of time: its host is gone) decodes its
 * shards without asking it for {@link #COPY_PAUSE}, instead of waiting out a call timeout per shard.
 *
 * <p>Blocking, on the worker's job thread; stops (after a checkpoint when it can) when {@code keepGoing}
 * turns false or the thread is interrupted.
 */
final class PodRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(PodRebuild.class);
    static final String REBUILD_FAILED = "rebuild-failed";
    private static final int PAGE = 1000;
    /** How long a decommission decodes without asking a source that did not answer. */
    static final Duration COPY_PAUSE = Duration.ofSeconds(30);

    private final Catalog catalog;
    private final PodClient pods;
    private final ShardRebuild rebuild;
    private final PodRebuildConfig config;
    private final PodRebuildMetrics metrics;
    private final Duration callTimeout;
    private final LongSupplier nanoTicker;
    /** Where shards are rebuilt side by side: {@code config.concurrency()} threads (not owned). */
    private final Executor workers;

    PodRebuild(Catalog catalog, PodClient pods, ShardRebuild rebuild, PodRebuildConfig config,
               PodRebuildMetrics metrics, Duration callTimeout, LongSupplier nanoTicker, Executor workers) {
        this.catalog = catalog;
        this.pods = pods;
        this.rebuild = rebuild;
        this.config = config;
        this.metrics = metrics;
        this.callTimeout = callTimeout;
        this.nanoTicker = nanoTicker;
        this.workers = workers;
    }

    /**
     * Runs {@code jobs} (of pods of {@code vault}, each from its checkpoint) in one walk to the end (then
     * DONE) or until told to stop: each file's stripes are read once for every pod of the group that lacks
     * its shard, so the pods of a lost host cost one decode, not one each. {@code progress} sees each job
     * after every file it walked. Returns the jobs as last checkpointed, in the order given.
     */
    List<PodRebuildJob> run(Vault vault, List<PodRebuildJob> jobs, BooleanSupplier keepGoing,
                            Consumer<PodRebuildJob> progress) throws IOException, InterruptedException {
        Vault onto = vault;
        List<Slot> slots = new ArrayList<>(jobs.size());
        for (PodRebuildJob job : jobs) {
            int shard = job.shardIndex();
            InetSocketAddress target = job.copies() ? new InetSocketAddress(job.targetHost(), job.targetPort())
                    : vault.pod(shard);
            // The vault as the shards are written: a decommission's target in place of the pod it retires.
            onto = onto.withPod(shard, target);
            slots.add(new Slot(job, target, new PodRebuildCursor(pods, target, vault.vaultId(), shard,
                    job.position(), callTimeout), nanoTicker.getAsLong()));
            LOG.info("pod rebuild job {} of pod {} in vault {} onto {} runs from file {} ({} files done){}{}",
                    job.jobId(), shard, vault.vaultId(), target, job.position(), job.filesDone(),
                    job.checkOnly() ? ", counting only" : job.copies() ? ", copying from " + vault.pod(shard) : "",
                    jobs.size() > 1 ? ", in one walk with " + (jobs.size() - 1) + " more" : "");
        }
        Vault ontoAll = onto;
        long sinceCheckpoint = 0;
        long lastCheckpointNanos = nanoTicker.getAsLong();
        // Up to `window` files are rebuilt at once, a new one started as the oldest is applied (a batch that
        // waited for its slowest would leave the throttle idle at every batch's end). A run that stops may
        // leave each of them half written, all within the files walked since the last checkpoint, so the
        // tail check covers that many more.
        int window = Math.min(config.concurrency(), config.checkpointFiles());
        long checkWindow = (long) config.checkpointFiles() + window;
        ArrayDeque<Pending> inFlight = new ArrayDeque<>();
        // The last file walked: ahead of every job's position by the files still in flight.
        long walked = slots.stream().mapToLong(slot -> slot.current.position()).min().orElseThrow();
        while (true) {
            List<FileRef> files = await(catalog.listFiles(vault.vaultId(), walked, PAGE), "list of files");
            for (FileRef f : files) {
                walked = f.fileId();
                if (!keepGoing.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    return stop(inFlight, slots, progress);
                }
                // Decided in file order (each pod's listing is walked forward), rebuilt side by side.
                List<Slot> walking = new ArrayList<>();
                List<Slot> missing = new ArrayList<>();
                for (Slot slot : slots) {
                    if (f.fileId() <= slot.job.position()) {
                        continue; // done before this run's checkpoint
                    }
                    walking.add(slot);
                    if (lacks(slot, f, checkWindow)) {
                        metrics.shardsMissing.increment();
                        missing.add(slot);
                    } else {
                        metrics.shardsPresent.increment();
                    }
                }
                List<Slot> toRebuild = missing.stream().filter(slot -> !slot.job.checkOnly()).toList();
                CompletableFuture<Map<Slot, Outcome>> outcome = toRebuild.isEmpty()
                        ? CompletableFuture.completedFuture(Map.of())
                        : CompletableFuture.supplyAsync(() -> rebuildShards(vault, ontoAll, toRebuild, f), workers);
                inFlight.add(new Pending(f, walking, missing, outcome));
                while (inFlight.size() >= window || !inFlight.isEmpty() && inFlight.peek().outcome().isDone()) {
                    if (!applyOldest(inFlight, progress)) {
                        return stop(inFlight, slots, progress);
                    }
                    sinceCheckpoint++;
                    if (sinceCheckpoint >= config.checkpointFiles()
                            || nanoTicker.getAsLong() - lastCheckpointNanos >= config.checkpointInterval().toNanos()) {
                        checkpoint(slots, State.RUNNING);
                        sinceCheckpoint = 0;
                        lastCheckpointNanos = nanoTicker.getAsLong();
                    }
                }
            }
            if (files.size() < PAGE) {
                while (!inFlight.isEmpty()) {
                    if (!applyOldest(inFlight, progress)) {
                        return stop(inFlight, slots, progress);
                    }
                }
                List<PodRebuildJob> done = checkpoint(slots, State.DONE);
                for (PodRebuildJob d : done) {
                    LOG.info("pod rebuild job {} of pod {} in vault {} done: {} files, {} shards {}, {} bytes, {} failed",
                            d.jobId(), d.shardIndex(), vault.vaultId(), d.filesDone(), d.shardsRebuilt(),
                            d.checkOnly() ? "missing" : "rebuilt", d.bytesRebuilt(), d.failures());
                }
                return done;
            }
        }
    }

    /** One job of a run: its pod's listing, its progress, and whether copying from its source is paused. */
    private static final class Slot {
        final PodRebuildJob job;
        final InetSocketAddress target;
        final PodRebuildCursor present;
        /** The job as of the last file applied; read by the job thread only. */
        PodRebuildJob current;
        long checkedThisRun;
        /** Until when (nano ticks) shards are decoded without trying the source: it did not answer. */
        volatile long copyPausedUntil;

        Slot(PodRebuildJob job, InetSocketAddress target, PodRebuildCursor present, long now) {
            this.job = job;
            this.target = target;
            this.present = present;
            this.current = job;
            this.copyPausedUntil = now;
        }
    }

    /** Whether the slot's pod lacks the file's shard (a listed one is read back near the checkpoint). */
    private boolean lacks(Slot slot, FileRef f, long checkWindow) throws IOException, InterruptedException {
        int shard = slot.job.shardIndex();
        // An empty file has no shard bytes anywhere: nothing to list, nothing to rebuild.
        boolean listed = f.size() == 0 || slot.present.has(f.fileId());
        boolean check = listed && (slot.checkedThisRun < checkWindow || f.missingShards().contains(shard));
        slot.checkedThisRun++;
        return !listed || check && !tailReadsBack(slot.target, f, shard);
    }

    /** A file walked, in walk order: the jobs that walked it, those whose pod lacked it, and what became of those. */
    private record Pending(FileRef file, List<Slot> walking, List<Slot> missing,
                           CompletableFuture<Map<Slot, Outcome>> outcome) {
    }

    /**
     * Waits for the oldest file in flight and moves its jobs past it; false when the wait was interrupted
     * (the run stops, the jobs where they were).
     */
    private boolean applyOldest(ArrayDeque<Pending> inFlight, Consumer<PodRebuildJob> progress)
            throws IOException, InterruptedException {
        Pending p = inFlight.peek();
        Map<Slot, Outcome> outcomes;
        try {
            outcomes = p.outcome().join();
        } catch (CompletionException | CancellationException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        inFlight.poll();
        FileRef f = p.file();
        List<Integer> toRepair = new ArrayList<>();
        for (Slot slot : p.walking()) {
            Outcome o = outcomes.getOrDefault(slot, p.missing().contains(slot) ? Outcome.COUNTED : Outcome.PRESENT);
            if (o.failed() && !slot.job.copies()) {
                toRepair.add(slot.job.shardIndex());
            }
            PodRebuildJob c = slot.current;
            slot.current = c.progressed(State.RUNNING, f.fileId(), c.filesDone() + 1,
                    c.shardsRebuilt() + (o.rebuilt() ? 1 : 0), c.bytesRebuilt() + o.written(),
                    c.failures() + (o.failed() ? 1 : 0));
            progress.accept(slot.current);
        }
        if (!toRepair.isEmpty()) {
            await(catalog.enqueueRepair(f.vaultId(), f.fileId(), toRepair, REBUILD_FAILED), "repair enqueue");
        }
        metrics.filesWalked.increment();
        return true;
    }

    /** Stops a run: what is done in walk order is checkpointed; rebuilds still in flight are left to finish. */
    private List<PodRebuildJob> stop(ArrayDeque<Pending> inFlight, List<Slot> slots, Consumer<PodRebuildJob> progress)
            throws IOException, InterruptedException {
        while (!inFlight.isEmpty() && inFlight.peek().outcome().isDone()
                && !inFlight.peek().outcome().isCompletedExceptionally()) {
            applyOldest(inFlight, progress);
        }
        return checkpoint(slots, State.RUNNING);
    }

    /** What became of one file's shard in a run; {@code rebuilt} counts it (in a check: as missing). */
    private record Outcome(boolean rebuilt, long written, boolean failed) {
        static final Outcome PRESENT = new Outcome(false, 0, false);
        static final Outcome COUNTED = new Outcome(true, 0, false);
        static final Outcome FAILED = new Outcome(false, 0, true);
    }

    /**
     * Rebuilds the file's shards of {@code slots} onto their pods in {@code onto}, on a worker: each job that
     * copies takes its shard from its source first (one pod's read); every shard not copied is decoded, all
     * of them from one read of the file's stripes. A failure is an outcome (queued for repair by the caller,
     * in a rebuild), not an error.
     */
    private Map<Slot, Outcome> rebuildShards(Vault vault, Vault onto, List<Slot> slots, FileRef f) {
        Map<Slot, Outcome> out = new HashMap<>();
        List<Slot> toDecode = new ArrayList<>();
        try {
            for (Slot slot : slots) {
                if (slot.job.copies() && nanoTicker.getAsLong() - slot.copyPausedUntil >= 0) {
                    int shard = slot.job.shardIndex();
                    try {
                        long written = rebuild.copy(onto, f, shard, vault.pod(shard));
                        metrics.shardsCopied.increment();
                        metrics.bytesRebuilt.increment(written);
                        out.put(slot, new Outcome(true, written, false));
                        continue;
                    } catch (IOException e) {
                        boolean silent = unanswered(e);
                        if (silent) {
                            // A source that does not answer (its host is gone) would cost a call timeout per shard.
                            slot.copyPausedUntil = nanoTicker.getAsLong() + COPY_PAUSE.toNanos();
                        }
                        LOG.info("decommission: shard {} of file {}/{} could not be copied from {} ({}): decoding it{}",
                                shard, f.vaultId(), f.fileId(), vault.pod(shard), e.toString(),
                                silent ? ", and decoding without asking it for the next " + COPY_PAUSE : "");
                    }
                }
                toDecode.add(slot);
            }
            if (!toDecode.isEmpty()) {
                List<Integer> shards = toDecode.stream().map(slot -> slot.job.shardIndex()).toList();
                try {
                    long written = rebuild.rebuild(onto, f, shards);
                    metrics.shardsDecoded.increment(shards.size());
                    metrics.bytesRebuilt.increment(written);
                    // Every rebuilt shard of a file has the same length.
                    toDecode.forEach(slot -> out.put(slot, new Outcome(true, written / shards.size(), false)));
                } catch (IOException e) {
                    metrics.failures.increment(shards.size());
                    boolean copies = toDecode.stream().allMatch(slot -> slot.job.copies());
                    LOG.warn("pod rebuild: shards {} of file {}/{} could not be rebuilt now ({}): {}", shards,
                            f.vaultId(), f.fileId(), copies ? "left to the rebuild after the switch"
                                    : "queued for repair", e.toString());
                    toDecode.forEach(slot -> out.put(slot, Outcome.FAILED));
                }
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    /** Whether a call failed for want of an answer (unreachable, or out of time) rather than with one. */
    static boolean unanswered(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return true;
            }
            if (t instanceof RpcException r && (r.code() == ErrorCode.UNREACHABLE || r.code() == ErrorCode.TIMEOUT)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the last chunk of the file's shard reads back, CRC-verified, from the pod. */
    private boolean tailReadsBack(InetSocketAddress target, FileRef f, int shard) throws InterruptedException {
        metrics.tailChecks.increment();
        VaultLayout layout = StoredFiles.fromRef(f).layout();
        long stripes = layout.stripeCount(f.size());
        if (stripes == 0) {
            return true;
        }
        long last = stripes - 1;
        try {
            ByteBuf tail = await(pods.read(target, new ShardId(f.vaultId(), f.fileId(), shard),
                    layout.shardOffset(last), layout.chunkLength(f.size(), last)), "read of the shard's last chunk");
            tail.release();
            return true;
        } catch (IOException e) {
            LOG.info("pod rebuild: shard {} of file {}/{} is listed but its last chunk does not read back ({}):"
                    + " rebuilding it", shard, f.vaultId(), f.fileId(), e.toString());
            return false;
        }
    }

    /** Writes every job's progress to the catalog; the jobs as checkpointed, in the run's order. */
    private List<PodRebuildJob> checkpoint(List<Slot> slots, State state) throws IOException, InterruptedException {
        List<PodRebuildJob> out = new ArrayList<>(slots.size());
        for (Slot slot : slots) {
            PodRebuildJob c = slot.current;
            slot.current = await(catalog.checkpointPodRebuild(c.progressed(state, c.position(), c.filesDone(),
                    c.shardsRebuilt(), c.bytesRebuilt(), c.failures())), "checkpoint");
            out.add(slot.current);
        }
        return out;
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), "pod rebuild " + what);
    }
}
