package io.shardvault.pod.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The stash of a pod's current assignment: a {@link StashAccess} whose servers are set when the
 * pod is assigned ({@link #connect}), so the flusher and the purge sender, made once, follow the
 * assignment. Without servers every call fails with {@code UNAVAILABLE} ({@link #serverFor} throws
 * IllegalStateException), and {@link #available()} is false: the pod then takes no buffered write.
 *
 * <p>Thread-safe.
 */
final class AssignedStash implements StashAccess {
    private final Connector connector;
    private volatile StashAccess current;

    AssignedStash(Connector connector) {
        this.connector = connector;
    }

    /** Uses {@code servers} from now on; none leaves the pod without a stash. */
    void connect(List<InetSocketAddress> servers) {
        current = servers.isEmpty() || connector == null ? null : connector.connect(servers);
    }

    boolean available() {
        return current != null;
    }

    private StashAccess current() {
        StashAccess s = current;
        if (s == null) {
            throw new IllegalStateException("this pod has no stash servers assigned");
        }
        return s;
    }

    @Override
    public InetSocketAddress serverFor(int vaultId, int shardIndex) {
        return current().serverFor(vaultId, shardIndex);
    }

    @Override
    public CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
        StashAccess s = current;
        return s == null ? unavailable() : s.list(vaultId, shardIndex, after, limit);
    }

    @Override
    public CompletableFuture<Copy> get(ShardId id) {
        StashAccess s = current;
        return s == null ? unavailable() : s.get(id);
    }

    @Override
    public CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids) {
        StashAccess s = current;
        return s == null ? unavailable() : s.purge(server, ids);
    }

    private static <T> CompletableFuture<T> unavailable() {
        return CompletableFuture.failedFuture(new RpcException(ErrorCode.UNAVAILABLE,
                "this pod has no stash servers assigned"));
    }
}
