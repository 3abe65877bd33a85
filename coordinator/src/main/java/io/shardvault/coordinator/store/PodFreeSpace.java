package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.PodInfo;
import io.shardvault.coordinator.catalog.VaultInfo;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodStats;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The cluster's free space from its pods' STATS: pod i of a vault holds shard i of every file, so
 * a vault can take about {@code k × (the smallest free space of its pods)} more object bytes; the
 * cluster's figure is the sum over the vaults in the catalog. A pod that does not answer is left
 * out (the vault's other pods still bound it); a vault none of whose pods answers counts 0.
 *
 * <p>The figure is cached for {@code maxAge} so that SOSAPI clients polling capacity.xml do not fan
 * out to every pod on each read; concurrent readers of a stale figure share one refresh.
 * Thread-safe; holds no resources of its own (the {@link PodClient}'s owner closes it).
 */
public final class PodFreeSpace implements FreeSpace {
    private final Catalog catalog;
    private final PodClient pods;
    private final long maxAgeNanos;
    private final LongSupplier nanoTicker;
    private CompletableFuture<Long> cached;
    private long cachedAt;

    /**
     * @param maxAge how long a figure is reused
     * @param nanoTicker a monotonic clock ({@code System::nanoTime} in production)
     */
    public PodFreeSpace(Catalog catalog, PodClient pods, Duration maxAge, LongSupplier nanoTicker) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTicker = Objects.requireNonNull(nanoTicker, "nanoTicker");
    }

    @Override
    public synchronized CompletableFuture<Long> availableBytes() {
        long now = nanoTicker.getAsLong();
        if (cached != null && now - cachedAt < maxAgeNanos && !cached.isCompletedExceptionally()) {
            return cached;
        }
        cachedAt = now;
        cached = catalog.listVaults().thenCompose(this::sumOverVaults);
        return cached;
    }

    private CompletableFuture<Long> sumOverVaults(List<VaultInfo> vaults) {
        List<CompletableFuture<Long>> perVault = new ArrayList<>();
        for (VaultInfo v : vaults) {
            perVault.add(vaultFree(v));
        }
        return CompletableFuture.allOf(perVault.toArray(CompletableFuture[]::new))
                .thenApply(x -> perVault.stream().mapToLong(CompletableFuture::join).reduce(0, PodFreeSpace::add));
    }

    private CompletableFuture<Long> vaultFree(VaultInfo vault) {
        List<CompletableFuture<Long>> free = new ArrayList<>();
        for (PodInfo p : vault.pods()) {
            free.add(pods.stats(new InetSocketAddress(p.host(), p.port()))
                    .thenApply(PodStats::usableBytes)
                    .exceptionally(failure -> -1L));
        }
        int k = vault.layout().dataShards();
        return CompletableFuture.allOf(free.toArray(CompletableFuture[]::new)).thenApply(x -> {
            long min = Long.MAX_VALUE;
            for (CompletableFuture<Long> f : free) {
                long bytes = f.join();
                if (bytes >= 0) {
                    min = Math.min(min, bytes);
                }
            }
            return min == Long.MAX_VALUE ? 0L : multiply(min, k);
        });
    }

    private static long multiply(long a, int b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long add(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
