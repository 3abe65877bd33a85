package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileIdRange;
import io.shardvault.coordinator.data.FileIdSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * File ids from the catalog's allocator, taken {@code batch} at a time so that most writes cost no
 * Raft round trip. Ids of a batch this process never used are simply skipped (ids are not reused).
 *
 * <p>Thread-safe.
 */
public final class CatalogFileIdSource implements FileIdSource {
    private final Catalog catalog;
    private final int batch;
    private final Map<Integer, Range> ranges = new HashMap<>();

    private static final class Range {
        FileIdRange current;
        int used;
        CompletableFuture<FileIdRange> refill;
    }

    public CatalogFileIdSource(Catalog catalog, int batch) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1: " + batch);
        }
        this.batch = batch;
    }

    @Override
    public CompletableFuture<Long> nextFileId(int vaultId) {
        CompletableFuture<FileIdRange> refill;
        synchronized (this) {
            Range r = ranges.computeIfAbsent(vaultId, v -> new Range());
            if (r.current != null && r.used < r.current.count()) {
                return CompletableFuture.completedFuture(r.current.get(r.used++));
            }
            if (r.refill == null || r.refill.isDone()) {
                // The range is installed inside the chain, before any caller's continuation runs.
                r.refill = catalog.allocateFileIds(vaultId, batch).thenApply(range -> {
                    synchronized (this) {
                        r.current = range;
                        r.used = 0;
                    }
                    return range;
                });
            }
            refill = r.refill;
        }
        return refill.thenCompose(range -> nextFileId(vaultId));
    }
}
