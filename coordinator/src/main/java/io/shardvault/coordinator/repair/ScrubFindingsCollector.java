package io.shardvault.coordinator.repair;

import io.shardvault.common.DaemonThreads;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.data.Vault;
import io.shardvault.coordinator.data.VaultDirectory;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.ScrubFinding;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the damage the pods' scrubbers found (op SCRUB_FINDINGS) into the catalog's repair queue
 * (issue #20, section 4), where the {@link RepairWorker} rebuilds it: every {@code repair.scrub.interval},
 * on the coordinator whose catalog peer leads, it asks each pod of each vault for its findings, queues
 * each as {@code scrub-corrupt} or {@code scrub-missing} ({@link Catalog#enqueueRepair}) and only then
 * acknowledges it to the pod, which forgets it. A coordinator that dies between the two leaves the
 * finding on the pod for the next leader: a finding is queued at least once, and queuing twice is
 * harmless (the queue merges it).
 *
 * <p>A finding for a file the catalog no longer refers to (deleted since; or an orphan, which the
 * orphan collector handles), of a vault not in the cluster map, or of a shard outside its file's
 * layout is dropped: acknowledged and counted, not queued. A finding whose enqueue fails stops that
 * pod's round (findings are acknowledged in order, "through" a number), so it is offered again next round.
 *
 * <p>Thread-safe; one thread. {@link #close()} stops it.
 */
public final class ScrubFindingsCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubFindingsCollector.class);
    static final String SCRUB_CORRUPT = "scrub-corrupt";
    static final String SCRUB_MISSING = "scrub-missing";
    static final int PAGE = 1000;

    private final Catalog catalog;
    private final BooleanSupplier leads;
    private final VaultDirectory vaults;
    private final PodClient client;
    private final RepairMetrics metrics;
    private final Duration callTimeout;
    private final ScheduledExecutorService rounds;

    private ScrubFindingsCollector(Catalog catalog, BooleanSupplier leads, VaultDirectory vaults, PodClient client,
                                   RepairMetrics metrics, Duration callTimeout) {
        this.catalog = catalog;
        this.leads = leads;
        this.vaults = vaults;
        this.client = client;
        this.metrics = metrics;
        this.callTimeout = callTimeout;
        this.rounds = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("scrub-findings"));
    }

    /**
     * Starts the rounds.
     *
     * @param leads whether this coordinator's catalog peer leads now (only then does it collect)
     * @param vaults the vaults whose pods are asked, as the map has them at each round
     * @param client a pod client (not owned)
     * @param callTimeout the pods' and catalog's call timeout: a call not answered in twice that has failed
     */
    public static ScrubFindingsCollector start(Duration interval, Catalog catalog, BooleanSupplier leads,
                                               VaultDirectory vaults, PodClient client, RepairMetrics metrics,
                                               Duration callTimeout) {
        ScrubFindingsCollector c = new ScrubFindingsCollector(catalog, leads, vaults, client, metrics, callTimeout);
        c.rounds.scheduleWithFixedDelay(c::round, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return c;
    }

    private void round() {
        Set<InetSocketAddress> pods = new LinkedHashSet<>();
        vaults.all().forEach(v -> pods.addAll(v.pods()));
        for (InetSocketAddress pod : pods) {
            if (!leads.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                return;
            }
            try {
                collectFrom(pod);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                metrics.scrubCollectFailures.increment();
                LOG.warn("taking scrub findings from pod {} failed (retried next round): {}", pod, e.toString());
            }
        }
    }

    /** Queues the pod's findings, acknowledging each page of them with the call that takes the next. */
    private void collectFrom(InetSocketAddress pod) throws IOException, InterruptedException {
        long ack = 0;
        while (true) {
            List<ScrubFinding> page = await(client.scrubFindings(pod, ack, PAGE), "SCRUB_FINDINGS of pod " + pod);
            if (page.isEmpty()) {
                return;
            }
            for (ScrubFinding f : page) {
                try {
                    queue(f);
                } catch (IOException e) {
                    metrics.scrubCollectFailures.increment();
                    LOG.warn("queuing the repair of shard {} found by pod {}'s scrubber failed (offered again next "
                            + "round): {}", f.id(), pod, e.toString());
                    if (ack > 0) {
                        await(client.scrubFindings(pod, ack, 1), "SCRUB_FINDINGS of pod " + pod);
                    }
                    return;
                }
                ack = f.seq();
            }
        }
    }

    private void queue(ScrubFinding f) throws IOException, InterruptedException {
        int vaultId = f.id().vaultId();
        long fileId = f.id().fileId();
        int shard = f.id().shardIndex();
        Vault vault = vaults.vault(vaultId).orElse(null);
        Optional<FileRef> file = vault == null ? Optional.empty() : await(catalog.file(vaultId, fileId), "catalog file");
        if (file.isEmpty() || shard >= vault.layout().n()) {
            metrics.scrubFindingsDropped.increment();
            LOG.info("scrub finding {} ({}) dropped: {}", f.id(), f.kind(), file.isEmpty()
                    ? "no catalog entry refers to the file" : "the shard is outside the vault's layout");
            return;
        }
        String reason = f.kind() == ScrubFinding.Kind.CORRUPT ? SCRUB_CORRUPT : SCRUB_MISSING;
        await(catalog.enqueueRepair(vaultId, fileId, List.of(shard), reason), "catalog enqueueRepair");
        metrics.scrubFindingsQueued.increment();
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callTimeout.multipliedBy(2), what);
    }

    @Override
    public void close() {
        rounds.shutdownNow();
        try {
            rounds.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
