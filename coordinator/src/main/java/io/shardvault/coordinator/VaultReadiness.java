package io.shardvault.coordinator;

import io.shardvault.common.DaemonThreads;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.admin.Readiness;
import io.shardvault.common.admin.ReadinessCheck;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.data.PodAssignments;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.pod.api.PodClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's {@code /health/ready}: probes in the background, every {@link #INTERVAL}, and
 * answers from the last probe, so that a scrape never waits on the cluster. Ready means all of:
 * <ol>
 *   <li>the catalog group has a leader;</li>
 *   <li>the vault is writable: at least the data path's write quorum ({@code data.writeQuorum},
 *       n-1 by default) of its n pods answer a STATS call within {@link #TIMEOUT};</li>
 *   <li>a catalog write commits: the probe re-registers the vault (idempotent, its pods untouched;
 *       an already-registered answer is a committed write too). A write is a Raft log entry, so after
 *       a success the next one waits {@link #WRITE_INTERVAL}; after a failure it is retried on
 *       every probe.</li>
 * </ol>
 * The first failing condition is the reason in the 503 body. The probe's STATS answers also
 * keep the pods' assignments current ({@link PodAssignments#observe}): a pod that reports none or
 * another one is sent its assignment again. Until the first probe ends, and from
 * {@link #close()} on, the answer is "not ready".
 *
 * <p>Thread-safe. Owns its probe thread and its RPC client (not the transport).
 */
final class VaultReadiness implements ReadinessCheck, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VaultReadiness.class);
    /** How often the probe runs: a load balancer sees a change within this much. */
    static final Duration INTERVAL = Duration.ofSeconds(2);
    /** The probe's per-call timeout: a pod slower than this to answer STATS counts as unreachable. */
    static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** How long a successful catalog write probe counts: it costs a log entry on every peer. */
    static final Duration WRITE_INTERVAL = Duration.ofSeconds(20);

    private final CatalogServer catalog;
    /** The vault as the coordinator's map has it now (a decommission's end moves a pod). */
    private final Supplier<Vault> vault;
    private final int writeQuorum;
    private final RpcClient rpc;
    private final PodClient pods;
    private final PodAssignments assignments;
    private final ScheduledExecutorService probe;
    private volatile Readiness last = Readiness.notReady("starting: first readiness probe not done");
    private volatile boolean closed;
    /** nanoTime of the last committed write probe; probe thread only. */
    private long lastWriteNanos;
    private boolean wroteOnce;

    VaultReadiness(CatalogServer catalog, Supplier<Vault> vault, int writeQuorum, RpcClient rpc, PodAssignments assignments) {
        this.catalog = catalog;
        this.assignments = assignments;
        this.vault = vault;
        this.writeQuorum = writeQuorum;
        this.rpc = rpc;
        this.pods = new PodClient(rpc);
        this.probe = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("coordinator-readiness"));
    }

    /** Starts probing; the first probe runs now. */
    VaultReadiness start() {
        probe.scheduleWithFixedDelay(this::runProbe, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public Readiness check() {
        return closed ? Readiness.notReady("shutting down") : last;
    }

    private void runProbe() {
        Readiness now;
        try {
            now = probeOnce();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            now = Readiness.notReady("readiness probe failed: " + e);
        }
        if (now.isReady() != last.isReady()) {
            LOG.info("coordinator readiness changed ready={} reason=\"{}\"", now.isReady(), now.reason());
        }
        last = now;
    }

    Readiness probeOnce() throws InterruptedException {
        if (catalog.leaderId().isEmpty()) {
            return Readiness.notReady("catalog has no leader");
        }
        Vault vault = this.vault.get();
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (InetSocketAddress pod : vault.pods()) {
            calls.add(pods.stats(pod).thenAccept(stats -> assignments.observe(pod, stats)));
        }
        int reachable = 0;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (CompletableFuture<?> call : calls) {
            if (await(call, deadline) == null) {
                reachable++;
            }
        }
        if (reachable < writeQuorum) {
            return Readiness.notReady("vault " + vault.vaultId() + " not writable: " + reachable + " of "
                    + vault.pods().size() + " pods reachable, writes need " + writeQuorum);
        }
        if (wroteOnce && System.nanoTime() - lastWriteNanos < WRITE_INTERVAL.toNanos()) {
            return Readiness.ready();
        }
        // The vault's row, not a pod's: a coordinator whose map is a refresh behind must not move a pod back.
        Throwable writeFailure = await(catalog.catalog().registerVault(ClusterMapConfig.vaultRow(vault)),
                System.nanoTime() + TIMEOUT.toNanos());
        if (writeFailure != null
                && !(writeFailure instanceof CatalogException c && c.code() == ErrorCode.CONFLICT)) {
            wroteOnce = false;
            return Readiness.notReady("catalog write failed: " + writeFailure);
        }
        wroteOnce = true;
        lastWriteNanos = System.nanoTime();
        return Readiness.ready();
    }

    /** Waits for {@code call} until the deadline; returns its failure, or null when it succeeded. */
    private static Throwable await(CompletableFuture<?> call, long deadlineNanos) throws InterruptedException {
        try {
            call.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return new TimeoutException("no answer within " + TIMEOUT.toMillis() + " ms");
        }
    }

    @Override
    public void close() {
        closed = true;
        probe.shutdownNow();
        rpc.close();
    }
}
