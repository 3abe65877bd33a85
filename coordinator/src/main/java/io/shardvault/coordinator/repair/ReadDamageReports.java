package io.shardvault.coordinator.repair;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.data.DamagedShards;
import io.shardvault.coordinator.data.StoredFile;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Queues the shards reads found damaged in the catalog's repair queue ({@code read-corrupt},
 * {@code read-missing}), without delaying the read: one enqueue per file and shard in flight (a
 * report of a shard already on its way is a duplicate and goes nowhere), and at most
 * {@code repair.reports.max} in flight (a report beyond that is dropped and counted; the damage is
 * found again by the next read of that chunk).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>setting</th><th>default</th></tr>
 *   <tr><td>enqueues in flight</td><td>{@code repair.reports.max}</td><td>1024</td></tr>
 * </table>
 *
 * <p>Thread-safe; {@link #report} never blocks and never throws.
 */
public final class ReadDamageReports implements DamagedShards {
    static final String READ_CORRUPT = "read-corrupt";
    static final String READ_MISSING = "read-missing";

    /** Sends one enqueue to the catalog ({@code Catalog::enqueueRepair}). */
    @FunctionalInterface
    public interface Enqueue {
        CompletableFuture<?> enqueue(int vaultId, long fileId, List<Integer> shards, String reason);
    }

    private record Key(int vaultId, long fileId, int shard) {
    }

    private final Enqueue enqueue;
    private final int max;
    private final RepairMetrics metrics;
    private final Set<Key> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger size = new AtomicInteger();

    public ReadDamageReports(Enqueue enqueue, int max, RepairMetrics metrics) {
        this.enqueue = Objects.requireNonNull(enqueue, "enqueue");
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1: " + max);
        }
        this.max = max;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void report(StoredFile file, int shard, ErrorCode cause) {
        Key key = new Key(file.vaultId(), file.fileId(), shard);
        if (size.incrementAndGet() > max) {
            size.decrementAndGet();
            metrics.reportsDropped.increment();
            return;
        }
        if (!inFlight.add(key)) {
            size.decrementAndGet();
            metrics.reportsDuplicate.increment();
            return;
        }
        String reason = cause == ErrorCode.CORRUPT ? READ_CORRUPT : READ_MISSING;
        CompletableFuture<?> sent;
        try {
            sent = enqueue.enqueue(key.vaultId(), key.fileId(), List.of(shard), reason);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((ok, failure) -> {
            inFlight.remove(key);
            size.decrementAndGet();
            (failure == null ? metrics.reportsQueued : metrics.reportsFailed).increment();
        });
    }

    /** Enqueues in flight now (for tests and the status view). */
    public int inFlight() {
        return size.get();
    }
}
