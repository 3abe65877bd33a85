package io.shardvault.coordinator.repair;

import io.shardvault.common.DaemonThreads;
import io.shardvault.common.erasure.ErasureCodecs;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.RepairTask;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.pod.api.PodClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs the degraded files of the catalog's repair queue (issue #20, section 2). Every
 * {@code repair.interval} a pass pages through the queue; for each file it looks the file up
 * ({@link Catalog#file}: size and layout, and whether anything still refers to it; a file deleted
 * meanwhile is dropped from the queue), rebuilds the queued shards from k good ones
 * ({@link ShardRebuild}: whole shards, written durably) and then takes exactly those shards off the
 * file's row, so shards queued meanwhile stay. The pass also sets the gauges (degraded files and bytes,
 * the oldest damage's age) that {@link #status()} and the admin MXBean show.
 *
 * <p><b>Where it runs.</b> Every coordinator runs the passes (for its gauges), but only the one whose
 * catalog peer is the leader repairs: two repairers of one file could interleave one's delete of a shard
 * with the other's rewrite and both record it repaired. Leadership moves rarely; a repair started just
 * before a move may overlap one started by the new leader for a pass, the one case left (see docs).
 *
 * <table>
 *   <caption>Limits (settings {@code repair.*})</caption>
 *   <tr><th>what</th><th>setting</th><th>default</th></tr>
 *   <tr><td>repaired bytes per second</td><td>{@code repair.rate.bytesPerSecond}</td><td>64 MiB</td></tr>
 *   <tr><td>files repaired at once</td><td>{@code repair.concurrency}</td><td>2</td></tr>
 *   <tr><td>retry after a failure</td><td>{@code repair.backoff.min} doubling to {@code .max}</td><td>5 s, 10 min</td></tr>
 * </table>
 *
 * <p>A failed repair (a pod still down, too few good chunks) leaves the file queued and backs it off;
 * nothing spins. Thread-safe; {@link #close()} stops the passes and interrupts repairs in flight (a
 * file interrupted midway stays queued).
 */
public final class RepairWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RepairWorker.class);
    private static final int PAGE = 1000;

    /** The status of the queue and of this coordinator's repairs, for the admin MXBean. */
    public record Status(boolean repairingHere, long degradedFiles, long degradedBytes, long oldestQueuedAgeSeconds,
                         long shardsRepaired, long bytesRepaired, long failures, long dropped) {
    }

    private record FileKey(int vaultId, long fileId) {
    }

    private record Backoff(int failures, long waitNanos, long notBeforeNanos) {
    }

    private final RepairConfig config;
    private final Catalog catalog;
    private final BooleanSupplier leads;
    private final VaultDirectory vaults;
    private final ShardRebuild rebuild;
    private final RepairMetrics metrics;
    private final Clock clock;
    private final ScheduledExecutorService passes;
    private final ExecutorService repairers;
    private final Map<FileKey, Backoff> backoffs = new ConcurrentHashMap<>();
    /** Sizes of queued live files, looked up once, for the degraded-bytes gauge. */
    private final Map<FileKey, Long> sizes = new ConcurrentHashMap<>();
    private final Duration callTimeout;

    private RepairWorker(RepairConfig config, Catalog catalog, BooleanSupplier leads, VaultDirectory vaults,
                         ShardRebuild rebuild, RepairMetrics metrics, Clock clock, Duration callTimeout) {
        this.config = config;
        this.catalog = catalog;
        this.leads = leads;
        this.vaults = vaults;
        this.rebuild = rebuild;
        this.metrics = metrics;
        this.clock = clock;
        this.callTimeout = callTimeout;
        this.passes = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("repair-pass"));
        this.repairers = Executors.newFixedThreadPool(config.concurrency(), DaemonThreads.numbered("repair"));
    }

    /**
     * Starts the passes.
     *
     * @param leads whether this coordinator's catalog peer leads now, and long enough (only then does it repair;
     *     a {@link LeaderTenure} in a coordinator)
     * @param data the data paths the repairs read files through (not owned)
     * @param pods a pod client for the shard deletes and writes (not owned)
     * @param callTimeout the pods' and catalog's call timeout: a call not answered in twice that has failed
     */
    public static RepairWorker start(RepairConfig config, Catalog catalog, BooleanSupplier leads, VaultDirectory vaults,
                                     DataPath data, PodClient pods, ErasureCodecs codecs, RepairMetrics metrics,
                                     Duration callTimeout) {
        ShardRebuild rebuild = new ShardRebuild(data, pods, codecs, new RateLimiter(config.bytesPerSecond(), System::nanoTime),
                callTimeout, () -> config.enabled() && leads.getAsBoolean());
        RepairWorker w = new RepairWorker(config, catalog, leads, vaults, rebuild, metrics, Clock.systemUTC(),
                callTimeout);
        w.passes.scheduleWithFixedDelay(w::pass, config.interval().toMillis(), config.interval().toMillis(),
                TimeUnit.MILLISECONDS);
        return w;
    }

    /** Whether this coordinator repairs now (enabled, and its catalog peer leads). */
    private boolean repairingHere() {
        return config.enabled() && leads.getAsBoolean();
    }

    /** The last pass's gauges and this coordinator's counters. */
    public Status status() {
        return new Status(repairingHere(), metrics.degradedFiles.get(), metrics.degradedBytes.get(),
                metrics.oldestAgeSeconds.get(), (long) metrics.shardsRepaired.count(),
                (long) metrics.bytesRepaired.count(), (long) metrics.failures.count(), (long) metrics.dropped.count());
    }

    /** The first {@code limit} queued files, in queue order. */
    public CompletableFuture<List<RepairTask>> queued(int limit) {
        return catalog.listRepairs(0, 0, limit);
    }

    private void pass() {
        try {
            boolean active = repairingHere();
            Semaphore slots = new Semaphore(config.concurrency());
            Set<FileKey> seen = new HashSet<>();
            long files = 0;
            long bytes = 0;
            Instant oldest = null;
            int fromVault = 0;
            long fromFile = 0;
            while (true) {
                List<RepairTask> page = await(catalog.listRepairs(fromVault, fromFile, PAGE));
                for (RepairTask task : page) {
                    FileKey key = new FileKey(task.vaultId(), task.fileId());
                    Long size = sizes.get(key);
                    if (size == null) {
                        Optional<FileRef> file = await(catalog.file(task.vaultId(), task.fileId()));
                        if (file.isEmpty()) {
                            if (active) {
                                drop(task);
                            }
                            continue;
                        }
                        size = file.get().size();
                        sizes.put(key, size);
                    }
                    seen.add(key);
                    files++;
                    bytes += size;
                    oldest = oldest == null || task.enqueuedAt().isBefore(oldest) ? task.enqueuedAt() : oldest;
                    if (active && due(key) && repairingHere()) {
                        slots.acquire();
                        try {
                            repairers.execute(() -> {
                                try {
                                    repair(task);
                                } finally {
                                    slots.release();
                                }
                            });
                        } catch (java.util.concurrent.RejectedExecutionException closing) {
                            slots.release();
                            return;
                        }
                    }
                }
                if (page.size() < PAGE) {
                    break;
                }
                RepairTask last = page.get(page.size() - 1);
                fromVault = last.vaultId();
                fromFile = last.fileId() + 1;
            }
            slots.acquire(config.concurrency());
            slots.release(config.concurrency());
            metrics.degradedFiles.set(files);
            metrics.degradedBytes.set(bytes);
            metrics.oldestAgeSeconds.set(oldest == null ? 0
                    : Math.max(0, Duration.between(oldest, clock.instant()).toSeconds()));
            sizes.keySet().retainAll(seen);
            backoffs.keySet().retainAll(seen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("repair pass failed (next in {}): {}", config.interval(), e.toString());
        }
    }

    private boolean due(FileKey key) {
        Backoff b = backoffs.get(key);
        return b == null || System.nanoTime() - b.notBeforeNanos() >= 0;
    }

    /** The file is no longer referenced: nothing to repair, its row goes. */
    private void drop(RepairTask task) throws IOException, InterruptedException {
        await(catalog.removeRepair(task.vaultId(), task.fileId(), List.of()));
        metrics.dropped.increment();
        LOG.info("file {}/{} is no longer referenced: dropped from the repair queue", task.vaultId(), task.fileId());
    }

    private void repair(RepairTask task) {
        FileKey key = new FileKey(task.vaultId(), task.fileId());
        try {
            Optional<FileRef> file = await(catalog.file(task.vaultId(), task.fileId()));
            if (file.isEmpty()) {
                drop(task);
                return;
            }
            Vault vault = vaults.vault(task.vaultId())
                    .orElseThrow(() -> new IOException("vault " + task.vaultId() + " is not in the cluster map"));
            long written = rebuild.rebuild(vault, file.get(), task.shards());
            await(catalog.removeRepair(task.vaultId(), task.fileId(), task.shards()));
            metrics.shardsRepaired.increment(task.shards().size());
            metrics.bytesRepaired.increment(written);
            backoffs.remove(key);
            LOG.info("repaired shards {} of file {}/{} ({} bytes written, queued {} as {})", task.shards(),
                    task.vaultId(), task.fileId(), written, task.enqueuedAt(), task.reason());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            metrics.failures.increment();
            Backoff b = backoffs.compute(key, (k, old) -> {
                long wait = old == null ? Math.min(config.backoffMin().toNanos(), config.backoffMax().toNanos())
                        : Math.min(old.waitNanos() * 2, config.backoffMax().toNanos());
                return new Backoff(old == null ? 1 : old.failures() + 1, wait, System.nanoTime() + wait);
            });
            LOG.warn("repair of shards {} of file {}/{} failed (attempt {}; it stays queued): {}", task.shards(),
                    task.vaultId(), task.fileId(), b.failures(), e.toString());
        }
    }

    private <T> T await(CompletableFuture<T> f) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), "catalog call");
    }

    @Override
    public void close() {
        passes.shutdownNow();
        repairers.shutdownNow();
        try {
            passes.awaitTermination(10, TimeUnit.SECONDS);
            repairers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
