package io.shardvault.coordinator.data;

import java.util.concurrent.CompletableFuture;

/**
 * Hands out file ids, never the same one twice within a vault (across coordinators and restarts).
 * In a cluster the catalog's allocator is the source; an id taken and never committed leaves, at
 * most, orphan shards that the catalog's pod-listing sweep finds.
 *
 * <p>Implementations are thread-safe; failures arrive through the future.
 */
@FunctionalInterface
public interface FileIdSource {

    /** A fresh file id in vault {@code vaultId}. */
    CompletableFuture<Long> nextFileId(int vaultId);
}
