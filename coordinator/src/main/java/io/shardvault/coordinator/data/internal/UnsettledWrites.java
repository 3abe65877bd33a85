package io.shardvault.coordinator.data.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files with shard calls still on their way: a write that completed on a quorum while stragglers
 * were still writing, or one that failed or gave up its id with stripes in flight. Every delete
 * of a file's shards ({@link ShardDataPath#deleteShards}) waits for them: a delete that overtook a
 * shard write would leave that shard on its pod for good.
 *
 * <p>Thread-safe.
 */
final class UnsettledWrites {
    private record FileKey(int vaultId, long fileId) {
    }

    private final ConcurrentHashMap<FileKey, CompletableFuture<Void>> files = new ConcurrentHashMap<>();

    /** Remembers the file until every one of {@code calls} has settled. */
    void track(int vaultId, long fileId, CompletableFuture<?>[] calls) {
        CompletableFuture<Void> all = CompletableFuture.allOf(calls);
        if (all.isDone()) {
            return;
        }
        FileKey key = new FileKey(vaultId, fileId);
        files.put(key, all);
        all.whenComplete((v, e) -> files.remove(key, all));
    }

    /** Completes once the file's shard calls have settled: at once for a file not tracked. */
    CompletableFuture<Void> settled(int vaultId, long fileId) {
        CompletableFuture<Void> all = files.get(new FileKey(vaultId, fileId));
        return all == null ? CompletableFuture.completedFuture(null) : all.handle((v, e) -> null);
    }
}
