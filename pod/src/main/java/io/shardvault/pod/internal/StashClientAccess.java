package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntry;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPlacement;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@link StashAccess} over the stash's own client: placement by {@link StashPlacement}
 * (rendezvous hashing of the slot over the configured servers, the same order every node uses).
 *
 * <p>Thread-safe. Does not own the {@link RpcClient}.
 */
public final class StashClientAccess implements StashAccess {
    private final StashClient client;
    private final StashPlacement placement;

    public StashClientAccess(RpcClient rpc, List<InetSocketAddress> servers) {
        this.client = new StashClient(rpc);
        this.placement = new StashPlacement(servers);
    }

    @Override
    public InetSocketAddress serverFor(int vaultId, int shardIndex) {
        return placement.serverFor(vaultId, shardIndex);
    }

    @Override
    public CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
        return guarded(() -> client.list(serverFor(vaultId, shardIndex), vaultId, shardIndex, after, limit))
                .thenApply(StashClientAccess::toPage);
    }

    private static Page toPage(io.shardvault.stash.api.StashPage page) {
        List<Entry> entries = new ArrayList<>(page.entries().size());
        for (StashEntryInfo info : page.entries()) {
            entries.add(new Entry(info.id(), info.offsetInShard(), info.length(), info.crc32c()));
        }
        return new Page(entries, page.next());
    }

    @Override
    public CompletableFuture<Copy> get(ShardId id) {
        return guarded(() -> client.get(serverFor(id.vaultId(), id.shardIndex()), id)).thenApply(entry -> {
            try (StashEntry e = entry) {
                StashEntryInfo info = e.info();
                return new Copy(new Entry(info.id(), info.offsetInShard(), info.length(), info.crc32c()),
                        e.data().retain());
            }
        });
    }

    @Override
    public CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids) {
        return guarded(() -> client.purge(server, ids));
    }

    /** Turns a failure thrown by a call into a failed future, as the callers expect. */
    private static <T> CompletableFuture<T> guarded(java.util.function.Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
