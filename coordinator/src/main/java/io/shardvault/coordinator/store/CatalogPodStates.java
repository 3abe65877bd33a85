package io.shardvault.coordinator.store;

import io.shardvault.common.DaemonThreads;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.PodState;
import io.shardvault.coordinator.catalog.PodStatus;
import io.shardvault.coordinator.data.WritablePods;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods' operator states (drained, down) as this coordinator last read them from the catalog,
 * refreshed every {@code refresh} and at once after a change made through {@link #set}, so the
 * coordinator that made a change honours it for its next write and the others within one refresh.
 * Until the first read succeeds every pod counts as up; a failed refresh keeps the last states.
 *
 * <p>Thread-safe; owns one daemon timer thread, stopped by {@link #close()}.
 */
public final class CatalogPodStates implements WritablePods, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CatalogPodStates.class);

    private final Catalog catalog;
    private final ScheduledExecutorService timer;
    private volatile Map<Long, PodStatus> states = Map.of();
    /** Reads are numbered when sent: an older read that answers late must not undo a newer one. */
    private long readsSent;
    private long newestApplied;

    public CatalogPodStates(Catalog catalog, Duration refresh) {
        this.catalog = catalog;
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("pod-states-refresh"));
        long ms = refresh.toMillis();
        timer.scheduleWithFixedDelay(this::refreshQuietly, 0, ms, TimeUnit.MILLISECONDS);
    }

    private static long key(int vaultId, int shardIndex) {
        return ((long) vaultId << 8) | shardIndex;
    }

    private void refreshQuietly() {
        try {
            refresh().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("pod states refresh failed; keeping the last ones: {}", e.toString());
        }
    }

    /** Reads the states from the catalog now. */
    public CompletableFuture<Void> refresh() {
        long seq;
        synchronized (this) {
            seq = ++readsSent;
        }
        return catalog.listPodStates().thenAccept(list -> replace(seq, list));
    }

    private synchronized void replace(long seq, List<PodStatus> list) {
        if (seq < newestApplied) {
            return;
        }
        newestApplied = seq;
        Map<Long, PodStatus> next = new HashMap<>();
        for (PodStatus p : list) {
            next.put(key(p.vaultId(), p.shardIndex()), p);
        }
        states = Map.copyOf(next);
    }

    /** Records a pod's new state in the catalog, then re-reads every state. */
    public CompletableFuture<PodStatus> set(int vaultId, int shardIndex, PodState state) {
        return catalog.setPodState(vaultId, shardIndex, state)
                .thenCompose(status -> refresh().thenApply(v -> status));
    }

    /** A pod's state as last read (UP when the catalog has none for it). */
    public PodStatus status(int vaultId, int shardIndex) {
        PodStatus p = states.get(key(vaultId, shardIndex));
        return p != null ? p : new PodStatus(vaultId, shardIndex, PodState.UP, Instant.EPOCH);
    }

    @Override
    public Optional<String> whyNotWritable(int vaultId, int shardIndex) {
        PodStatus p = states.get(key(vaultId, shardIndex));
        if (p == null || p.state().acceptsNewShards()) {
            return Optional.empty();
        }
        return Optional.of(p.state() == PodState.DRAINING ? "drained by an operator" : "marked down by an operator");
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
