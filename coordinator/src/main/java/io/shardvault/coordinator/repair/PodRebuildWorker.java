package io.shardvault.coordinator.repair;

import io.shardvault.common.DaemonThreads;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.PodRebuildJob;
import io.shardvault.coordinator.catalog.PodRebuildJob.State;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the pod rebuild jobs the catalog keeps (issue #20, section 3). {@link #start(int, int, boolean)}
 * (the admin operation, on any coordinator) writes a job row; every {@code repair.rebuild.interval} the
 * coordinator whose catalog peer leads looks for a {@link State#RUNNING} job and runs it ({@link
 * PodRebuild}), one job at a time, from the job's last checkpoint: a job started elsewhere, or left
 * behind by a coordinator that died or lost the lead, resumes here.
 *
 * <table>
 *   <caption>Limits (settings {@code repair.rebuild.*})</caption>
 *   <tr><th>what</th><th>setting</th><th>default</th></tr>
 *   <tr><td>rebuilt bytes per second</td><td>{@code repair.rebuild.bytesPerSecond}</td><td>64 MiB</td></tr>
 *   <tr><td>look for a job every</td><td>{@code repair.rebuild.interval}</td><td>5 s</td></tr>
 *   <tr><td>checkpoint every</td><td>{@code repair.rebuild.checkpoint.files} / {@code .interval}</td>
 *       <td>500 files / 10 s</td></tr>
 * </table>
 *
 * <p>A rebuild runs on the pod at the address this coordinator's vault map gives it; when that is not
 * the job's target (the map changed since the start) it is not run here, and says so in the log. A
 * decommission ({@link #decommission}) copies from the pod the map gives and runs only while the map
 * still gives the job's source. A decommission's DONE is followed, {@code repair.rebuild.catchUpDelay} later,
 * by the catch-up rebuild of its replacement, which the leading coordinator starts by itself. The running
 * jobs of one vault run together, in one walk ({@link PodRebuild}): the pods of a lost host, decommissioned
 * or rebuilt at once, are decoded from one read of each file; so that jobs started one after the other
 * gather, none runs until the newest job not yet run is {@code repair.rebuild.gatherDelay} old. Thread-safe;
 * {@link #close()} stops the job thread (the job resumes from its checkpoint elsewhere or after a restart).
 */
public final class PodRebuildWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodRebuildWorker.class);

    /**
     * A job as the admin console shows it: the catalog's row, or this coordinator's fresher copy while it
     * runs the job, with the rate and the time left.
     *
     * @param job the job
     * @param runningHere whether this coordinator runs it now
     * @param bytesPerSecond rebuilt bytes per second since the job started
     * @param filesPerSecond files walked per second since the job started
     * @param etaSeconds the time left at that pace, or -1 when unknown (nothing done yet, or done)
     */
    public record Progress(PodRebuildJob job, boolean runningHere, long bytesPerSecond, double filesPerSecond,
                           long etaSeconds) {
    }

    private final PodRebuildConfig config;
    private final Catalog catalog;
    private final BooleanSupplier leads;
    private final VaultDirectory vaults;
    private final PodRebuild rebuild;
    private final PodClient pods;
    private final Clock clock;
    private final Duration callTimeout;
    private final ScheduledExecutorService polls;
    private final ExecutorService jobThread;
    /** The threads a run rebuilds shards on, side by side (owned). */
    private final ExecutorService shardWorkers;
    /** The jobs this coordinator runs now, as of their last file, by (vault, pod); empty when none. */
    private final Map<List<Integer>, PodRebuildJob> running = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private PodRebuildWorker(PodRebuildConfig config, Catalog catalog, BooleanSupplier leads, VaultDirectory vaults,
                             PodRebuild rebuild, PodClient pods, Clock clock, Duration callTimeout,
                             ExecutorService shardWorkers) {
        this.config = config;
        this.catalog = catalog;
        this.leads = leads;
        this.vaults = vaults;
        this.rebuild = rebuild;
        this.pods = pods;
        this.clock = clock;
        this.callTimeout = callTimeout;
        this.polls = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("pod-rebuild-poll"));
        this.jobThread = Executors.newSingleThreadExecutor(DaemonThreads.named("pod-rebuild"));
        this.shardWorkers = shardWorkers;
    }

    /**
     * Starts looking for jobs.
     *
     * @param leads whether this coordinator's catalog peer leads now (only then does it run a job)
     * @param data the data paths the rebuild reads files through (not owned)
     * @param pods a pod client for the listings, shard deletes and writes (not owned)
     * @param callTimeout the pods' and catalog's call timeout: a call not answered in twice that has failed
     */
    public static PodRebuildWorker start(PodRebuildConfig config, Catalog catalog, BooleanSupplier leads,
                                         VaultDirectory vaults, DataPath data, PodClient pods, ErasureCodecs codecs,
                                         PodRebuildMetrics metrics, Duration callTimeout) {
        ShardRebuild shards = new ShardRebuild(data, pods, codecs, new RateLimiter(config.bytesPerSecond(),
                System::nanoTime), callTimeout, leads);
        ExecutorService shardWorkers = Executors.newFixedThreadPool(config.concurrency(),
                DaemonThreads.numbered("pod-rebuild-shard"));
        PodRebuild rebuild = new PodRebuild(catalog, pods, shards, config, metrics, callTimeout, System::nanoTime,
                shardWorkers);
        PodRebuildWorker w = new PodRebuildWorker(config, catalog, leads, vaults, rebuild, pods, Clock.systemUTC(),
                callTimeout, shardWorkers);
        w.polls.scheduleWithFixedDelay(w::poll, 0, config.interval().toMillis(), TimeUnit.MILLISECONDS);
        return w;
    }

    /**
     * Starts the rebuild of pod {@code shardIndex} of a vault onto the address the vault map gives it:
     * writes the job's row; the leading coordinator runs it. Fails with the catalog's {@code CONFLICT}
     * while a job of that pod runs.
     *
     * @param checkOnly only count the shards the pod lacks
     */
    public CompletableFuture<PodRebuildJob> start(int vaultId, int shardIndex, boolean checkOnly) {
        InetSocketAddress target;
        try {
            target = podAddress(vaultId, shardIndex);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return started(catalog.usage(Optional.empty())
                .thenCompose(u -> catalog.startPodRebuild(vaultId, shardIndex, target.getHostString(),
                        target.getPort(), checkOnly, u.objectVersions())), checkOnly ? "counting only, " : "");
    }

    /**
     * Starts the decommission of pod {@code shardIndex} of a vault: a job that copies each of its shards
     * from the pod at its address in the vault map (which keeps serving) onto {@code onto}, its
     * replacement, which must answer now; the leading coordinator runs it while its map still gives the
     * old address. Fails with the catalog's {@code CONFLICT} while a job of that pod runs.
     */
    public CompletableFuture<PodRebuildJob> decommission(int vaultId, int shardIndex, InetSocketAddress onto) {
        InetSocketAddress source;
        try {
            source = podAddress(vaultId, shardIndex);
            if (source.getHostString().equals(onto.getHostString()) && source.getPort() == onto.getPort()) {
                throw new IllegalArgumentException("pod " + shardIndex + " of vault " + vaultId + " is at " + onto
                        + " already: a decommission copies onto another pod (to refill this one: pod rebuild)");
            }
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return started(pods.stats(onto)
                .exceptionallyCompose(e -> CompletableFuture.failedFuture(new IllegalArgumentException("no pod answers"
                        + " at " + onto + " (start the replacement first): " + e.getMessage(), e)))
                .thenCompose(stats -> catalog.usage(Optional.empty()))
                .thenCompose(u -> catalog.startPodDecommission(vaultId, shardIndex, onto.getHostString(),
                        onto.getPort(), source.getHostString(), source.getPort(), u.objectVersions())),
                "copying from " + source + ", ");
    }

    /** Pod {@code shardIndex}'s address in vault {@code vaultId} as this coordinator's map has it. */
    private InetSocketAddress podAddress(int vaultId, int shardIndex) {
        Vault vault = vaults.vault(vaultId).orElseThrow(() -> new IllegalArgumentException("no vault " + vaultId));
        if (shardIndex < 0 || shardIndex >= vault.layout().n()) {
            throw new IllegalArgumentException("no pod " + shardIndex + " in vault " + vaultId + " (it has "
                    + vault.layout().n() + ")");
        }
        return vault.pod(shardIndex);
    }

    /** Logs a started job and looks for it at once. */
    private CompletableFuture<PodRebuildJob> started(CompletableFuture<PodRebuildJob> start, String how) {
        return start.whenComplete((job, failure) -> {
            if (failure == null) {
                LOG.info("pod rebuild job {} of pod {} in vault {} onto {}:{} started ({}~{} live files)", job.jobId(),
                        job.shardIndex(), job.vaultId(), job.targetHost(), job.targetPort(), how, job.filesTotal());
                try {
                    polls.execute(this::poll);
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    LOG.debug("closing: the job is left to the next leader");
                }
            }
        });
    }

    /** Every job the catalog keeps, with this coordinator's fresher copy of the one it runs. */
    public CompletableFuture<List<Progress>> jobs() {
        return catalog.listPodRebuilds().thenApply(rows -> {
            Instant now = clock.instant();
            List<Progress> out = new ArrayList<>();
            for (PodRebuildJob row : rows) {
                PodRebuildJob live = running.get(key(row));
                boolean here = live != null && live.jobId() == row.jobId();
                out.add(progress(here ? live : row, here, here ? now : row.updatedAt()));
            }
            return out;
        });
    }

    /** The rate and time left of {@code job} as of {@code asOf}, both since the job started. */
    public static Progress progress(PodRebuildJob job, boolean runningHere, Instant asOf) {
        double seconds = Math.max(1e-3, Duration.between(job.startedAt(), asOf).toMillis() / 1000.0);
        double filesPerSecond = job.filesDone() / seconds;
        long eta = -1;
        if (job.state() == State.RUNNING && filesPerSecond > 0) {
            eta = (long) Math.ceil(Math.max(0, job.filesTotal() - job.filesDone()) / filesPerSecond);
        } else if (job.state() == State.DONE) {
            eta = 0;
        }
        return new Progress(job, runningHere, (long) (job.bytesRebuilt() / seconds), filesPerSecond, eta);
    }

    /** Whether this coordinator runs a job now. */
    public boolean rebuildingHere() {
        return !running.isEmpty();
    }

    private static List<Integer> key(PodRebuildJob job) {
        return List.of(job.vaultId(), job.shardIndex());
    }

    private void poll() {
        if (closed || !running.isEmpty() || !leads.getAsBoolean()) {
            return;
        }
        try {
            List<PodRebuildJob> rows = Bounded.await(catalog.listPodRebuilds(), callTimeout.multipliedBy(2),
                    "list of pod rebuilds");
            boolean started = false;
            for (PodRebuildJob job : rows) {
                if (dueForCatchUp(job)) {
                    startCatchUp(job);
                    started = true;
                }
            }
            if (started) {
                // Every due catch-up has its row now: the next poll runs them in one walk.
                polls.execute(this::poll);
                return;
            }
            List<PodRebuildJob> group = new ArrayList<>();
            Vault groupVault = null;
            for (PodRebuildJob job : rows) {
                if (job.state() != State.RUNNING) {
                    continue;
                }
                if (job.filesDone() == 0 && clock.instant().isBefore(job.startedAt().plus(config.gatherDelay()))) {
                    LOG.debug("pod rebuild job {} of pod {} started at {}: waiting {} for others to run with it",
                            job.jobId(), job.shardIndex(), job.startedAt(), config.gatherDelay());
                    return;
                }
                Optional<Vault> vault = vaults.vault(job.vaultId());
                if (vault.isEmpty()) {
                    LOG.warn("pod rebuild job {}: vault {} is not in this coordinator's map", job.jobId(), job.vaultId());
                    continue;
                }
                // A rebuild writes to the map's pod; a decommission copies from it.
                InetSocketAddress at = vault.get().pod(job.shardIndex());
                String host = job.copies() ? job.sourceHost() : job.targetHost();
                int port = job.copies() ? job.sourcePort() : job.targetPort();
                if (!at.getHostString().equals(host) || at.getPort() != port) {
                    LOG.warn("pod rebuild job {} {} {}:{} but this coordinator has pod {} of vault {} at {}: not"
                            + " running it here", job.jobId(), job.copies() ? "copies from" : "targets", host, port,
                            job.shardIndex(), job.vaultId(), at);
                    continue;
                }
                // One walk serves every job of a vault that rebuilds (the pods of a lost host share their
                // reads); a job that only counts runs alone.
                if (group.isEmpty()) {
                    group.add(job);
                    groupVault = vault.get();
                } else if (!group.get(0).checkOnly() && !job.checkOnly() && job.vaultId() == groupVault.vaultId()) {
                    group.add(job);
                }
            }
            // Polls run on one thread: nothing else starts a run between the check above and this.
            if (!group.isEmpty()) {
                group.forEach(job -> running.put(key(job), job));
                Vault vault = groupVault;
                List<PodRebuildJob> jobs = List.copyOf(group);
                jobThread.execute(() -> runJobs(vault, jobs));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("looking for pod rebuilds failed (next in {}): {}", config.interval(), e.toString());
        }
    }

    /**
     * Whether {@code job} is a decommission whose catch-up rebuild should start now: it is DONE (its row
     * is replaced by the catch-up's once that starts, so this holds once per decommission, on whichever
     * coordinator leads), {@code catchUpDelay} has passed since, and this coordinator's map already gives
     * the pod the replacement's address.
     */
    private boolean dueForCatchUp(PodRebuildJob job) {
        if (job.state() != State.DONE || !job.copies()
                || clock.instant().isBefore(job.updatedAt().plus(config.catchUpDelay()))) {
            return false;
        }
        Optional<Vault> vault = vaults.vault(job.vaultId());
        return vault.isPresent() && job.shardIndex() < vault.get().layout().n()
                && targets(vault.get().pod(job.shardIndex()), job);
    }

    private static boolean targets(InetSocketAddress at, PodRebuildJob job) {
        return at.getHostString().equals(job.targetHost()) && at.getPort() == job.targetPort();
    }

    /**
     * Starts the rebuild of a decommissioned pod's replacement that recreates the shards written to the old
     * pod after the copy had passed their files, or under way at the switch: without it the replacement
     * lacks them, and retiring the old pod would leave those files one shard short.
     */
    private void startCatchUp(PodRebuildJob decommission) throws IOException, InterruptedException {
        long files = Bounded.await(catalog.usage(Optional.empty()), callTimeout.multipliedBy(2), "usage")
                .objectVersions();
        PodRebuildJob job = Bounded.await(catalog.startPodRebuild(decommission.vaultId(), decommission.shardIndex(),
                decommission.targetHost(), decommission.targetPort(), false, files), callTimeout.multipliedBy(2),
                "start of a catch-up rebuild");
        LOG.info("decommission job {} of pod {} in vault {} is DONE since {}: its catch-up rebuild, job {}, recreates"
                        + " on {}:{} what was written to the old pod meanwhile; retire the old pod when it is DONE",
                decommission.jobId(), decommission.shardIndex(), decommission.vaultId(), decommission.updatedAt(),
                job.jobId(), job.targetHost(), job.targetPort());
    }

    private void runJobs(Vault vault, List<PodRebuildJob> jobs) {
        try {
            List<PodRebuildJob> last = rebuild.run(vault, jobs, () -> !closed && leads.getAsBoolean(),
                    job -> running.put(key(job), job));
            List<Long> switched = last.stream().filter(job -> job.state() == State.DONE && job.copies())
                    .map(PodRebuildJob::jobId).toList();
            if (!switched.isEmpty()) {
                // Their DONE moved the pods in the catalog: new writes here go to the replacements from now on.
                vaults.refresh().orTimeout(callTimeout.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS)
                        .whenComplete((ok, failure) -> {
                            if (failure != null) {
                                LOG.info("decommission jobs {} are DONE; the vault map follows at its next refresh: {}",
                                        switched, failure.toString());
                            }
                        });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("pod rebuild jobs {} of pods {} in vault {} stopped (they resume from their checkpoints in {}): {}",
                    jobs.stream().map(PodRebuildJob::jobId).toList(), jobs.stream().map(PodRebuildJob::shardIndex)
                            .toList(), vault.vaultId(), config.interval(), e.toString());
        } finally {
            running.clear();
        }
    }

    @Override
    public void close() {
        closed = true;
        polls.shutdownNow();
        jobThread.shutdownNow();
        shardWorkers.shutdownNow();
        try {
            polls.awaitTermination(10, TimeUnit.SECONDS);
            jobThread.awaitTermination(10, TimeUnit.SECONDS);
            shardWorkers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
