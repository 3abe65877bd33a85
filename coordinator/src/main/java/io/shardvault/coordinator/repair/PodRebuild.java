package io.shardvault.coordinator.repair;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a pod rebuild job (issue #20, section 3): walks the vault's live files in file id order
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
 * <p>Blocking, on the worker's job thread; stops (after a checkpoint when it can) when {@code keepGoing}
 * turns false or the thread is interrupted.
 */
final class PodRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(PodRebuild.class);
    static final String REBUILD_FAILED = "rebuild-failed";
    private static final int PAGE = 1000;

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
     * Runs {@code job} on {@code vault}'s pod from its checkpoint to the end (then DONE) or until told to
     * stop. {@code progress} sees the job after every file. Returns the job as last checkpointed.
     */
    PodRebuildJob run(Vault vault, PodRebuildJob job, BooleanSupplier keepGoing, Consumer<PodRebuildJob> progress)
            throws IOException, InterruptedException {
        int shard = job.shardIndex();
        InetSocketAddress target = job.copies() ? new InetSocketAddress(job.targetHost(), job.targetPort())
                : vault.pod(shard);
        // The vault as the shards are written: a decommission's target in place of the pod it retires.
        Vault onto = vault.withPod(shard, target);
        PodRebuildCursor present = new PodRebuildCursor(pods, target, vault.vaultId(), shard, job.position(),
                callTimeout);
        PodRebuildJob current = job;
        long sinceCheckpoint = 0;
        long lastCheckpointNanos = nanoTicker.getAsLong();
        long checkedThisRun = 0;
        LOG.info("pod rebuild job {} of pod {} in vault {} onto {} runs from file {} ({} files done){}", job.jobId(),
                shard, vault.vaultId(), target, job.position(), job.filesDone(), job.checkOnly() ? ", counting only"
                        : job.copies() ? ", copying from " + vault.pod(shard) : "");
        // Up to `window` shards are rebuilt at once, a new one started as the oldest is applied (a batch that
        // waited for its slowest would leave the throttle idle at every batch's end). A run that stops may
        // leave each of them half written, all within the files walked since the last checkpoint, so the
        // tail check covers that many more.
        int window = Math.min(config.concurrency(), config.checkpointFiles());
        long checkWindow = (long) config.checkpointFiles() + window;
        ArrayDeque<Pending> inFlight = new ArrayDeque<>();
        // The last file walked: ahead of the job's position by the files still in flight.
        long walked = job.position();
        while (true) {
            List<FileRef> files = await(catalog.listFiles(vault.vaultId(), walked, PAGE), "list of files");
            for (FileRef f : files) {
                walked = f.fileId();
                if (!keepGoing.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    return stop(inFlight, current, progress);
                }
                // Decided in file order (the pod's listing is walked forward), rebuilt side by side.
                // An empty file has no shard bytes anywhere: nothing to list, nothing to rebuild.
                boolean listed = f.size() == 0 || present.has(f.fileId());
                boolean check = listed && (checkedThisRun < checkWindow || f.missingShards().contains(shard));
                checkedThisRun++;
                boolean missing = !listed || check && !tailReadsBack(target, f, shard);
                CompletableFuture<Outcome> outcome;
                if (!missing) {
                    metrics.shardsPresent.increment();
                    outcome = CompletableFuture.completedFuture(Outcome.PRESENT);
                } else {
                    metrics.shardsMissing.increment();
                    outcome = job.checkOnly() ? CompletableFuture.completedFuture(Outcome.COUNTED)
                            : CompletableFuture.supplyAsync(() -> rebuildShard(vault, onto, job, f), workers);
                }
                inFlight.add(new Pending(f, outcome));
                while (inFlight.size() >= window || !inFlight.isEmpty() && inFlight.peek().outcome().isDone()) {
                    Optional<PodRebuildJob> applied = applyOldest(inFlight, current, progress);
                    if (applied.isEmpty()) {
                        return stop(inFlight, current, progress);
                    }
                    current = applied.get();
                    sinceCheckpoint++;
                    if (sinceCheckpoint >= config.checkpointFiles()
                            || nanoTicker.getAsLong() - lastCheckpointNanos >= config.checkpointInterval().toNanos()) {
                        current = checkpoint(current, State.RUNNING);
                        sinceCheckpoint = 0;
                        lastCheckpointNanos = nanoTicker.getAsLong();
                    }
                }
            }
            if (files.size() < PAGE) {
                while (!inFlight.isEmpty()) {
                    Optional<PodRebuildJob> applied = applyOldest(inFlight, current, progress);
                    if (applied.isEmpty()) {
                        return stop(inFlight, current, progress);
                    }
                    current = applied.get();
                }
                PodRebuildJob done = checkpoint(current, State.DONE);
                LOG.info("pod rebuild job {} of pod {} in vault {} done: {} files, {} shards {}, {} bytes, {} failed",
                        done.jobId(), shard, vault.vaultId(), done.filesDone(), done.shardsRebuilt(),
                        done.checkOnly() ? "missing" : "rebuilt", done.bytesRebuilt(), done.failures());
                return done;
            }
        }
    }

    /** A file whose shard is being rebuilt (or was found present), in walk order. */
    private record Pending(FileRef file, CompletableFuture<Outcome> outcome) {
    }

    /**
     * Waits for the oldest file in flight and moves the job past it; empty when the wait was interrupted
     * (the run stops, the job where it was).
     */
    private Optional<PodRebuildJob> applyOldest(ArrayDeque<Pending> inFlight, PodRebuildJob current,
                                                Consumer<PodRebuildJob> progress)
            throws IOException, InterruptedException {
        Pending p = inFlight.peek();
        Outcome o;
        try {
            o = p.outcome().join();
        } catch (CompletionException | CancellationException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        inFlight.poll();
        FileRef f = p.file();
        if (o.failed() && !current.copies()) {
            await(catalog.enqueueRepair(f.vaultId(), f.fileId(), List.of(current.shardIndex()), REBUILD_FAILED),
                    "repair enqueue");
        }
        metrics.filesWalked.increment();
        PodRebuildJob next = current.progressed(State.RUNNING, f.fileId(), current.filesDone() + 1,
                current.shardsRebuilt() + (o.rebuilt() ? 1 : 0), current.bytesRebuilt() + o.written(),
                current.failures() + (o.failed() ? 1 : 0));
        progress.accept(next);
        return Optional.of(next);
    }

    /** Stops a run: what is done in walk order is checkpointed; rebuilds still in flight are left to finish. */
    private PodRebuildJob stop(ArrayDeque<Pending> inFlight, PodRebuildJob current, Consumer<PodRebuildJob> progress)
            throws IOException, InterruptedException {
        while (!inFlight.isEmpty() && inFlight.peek().outcome().isDone()
                && !inFlight.peek().outcome().isCompletedExceptionally()) {
            current = applyOldest(inFlight, current, progress).orElse(current);
        }
        return checkpoint(current, State.RUNNING);
    }

    /** What became of one file's shard in a run; {@code rebuilt} counts it (in a check: as missing). */
    private record Outcome(boolean rebuilt, long written, boolean failed) {
        static final Outcome PRESENT = new Outcome(false, 0, false);
        static final Outcome COUNTED = new Outcome(true, 0, false);
    }

    /**
     * Rebuilds one shard onto its pod in {@code onto}, on a worker: copied from {@code vault}'s pod when the
     * job copies and that pod gives it, decoded otherwise. A failure is an outcome (queued for repair by
     * the caller, in a rebuild), not an error.
     */
    private Outcome rebuildShard(Vault vault, Vault onto, PodRebuildJob job, FileRef f) {
        int shard = job.shardIndex();
        try {
            if (job.copies()) {
                try {
                    long written = rebuild.copy(onto, f, shard, vault.pod(shard));
                    metrics.shardsCopied.increment();
                    metrics.bytesRebuilt.increment(written);
                    return new Outcome(true, written, false);
                } catch (IOException e) {
                    LOG.info("decommission: shard {} of file {}/{} could not be copied from {} ({}): decoding it",
                            shard, f.vaultId(), f.fileId(), vault.pod(shard), e.toString());
                }
            }
            long written = rebuild.rebuild(onto, f, List.of(shard));
            metrics.shardsDecoded.increment();
            metrics.bytesRebuilt.increment(written);
            return new Outcome(true, written, false);
        } catch (IOException e) {
            metrics.failures.increment();
            LOG.warn("pod rebuild: shard {} of file {}/{} could not be rebuilt now ({}): {}", shard, f.vaultId(),
                    f.fileId(), job.copies() ? "left to the rebuild after the switch" : "queued for repair", e.toString());
            return new Outcome(false, 0, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
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

    private PodRebuildJob checkpoint(PodRebuildJob job, State state) throws IOException, InterruptedException {
        return await(catalog.checkpointPodRebuild(job.progressed(state, job.position(), job.filesDone(),
                job.shardsRebuilt(), job.bytesRebuilt(), job.failures())), "checkpoint");
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), "pod rebuild " + what);
    }
}
