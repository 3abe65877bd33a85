package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcClient;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Placeholder until the stash client is merged. */
public final class StashClientAccess implements StashAccess {
    public StashClientAccess(RpcClient rpc, List<InetSocketAddress> servers) {
        throw new UnsupportedOperationException("stash client not merged yet");
    }

    @Override
    public InetSocketAddress serverFor(int vaultId, int shardIndex) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<ByteBuf> get(ShardId id) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids) {
        throw new UnsupportedOperationException();
    }
}
