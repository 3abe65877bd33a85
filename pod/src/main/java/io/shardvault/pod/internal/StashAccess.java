package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a pod needs from the stash: where a shard's copy lives, its unpurged entries, their bytes,
 * and purging. The production implementation ({@link StashClientAccess}) calls the stash servers;
 * the seam lets unit tests run the sender and recovery against an in-memory stash.
 *
 * <p>Implementations are thread-safe; futures fail with {@code RpcException}.
 */
public interface StashAccess {

    /** One entry as listed: the chunk the stash holds for a shard. */
    record Entry(ShardId id, long offsetInShard, int length, int crc32c) {
    }

    /** One entry's bytes, with what the stash knows of them; the holder releases {@code data}. */
    record Copy(Entry entry, ByteBuf data) {
    }

    /** A page of entries and the exclusive resume token. */
    record Page(List<Entry> entries, Optional<ShardId> next) {
    }

    /** Makes the access to an assignment's stash servers: the real client, or a test's in-memory stash. */
    @FunctionalInterface
    interface Connector {
        StashAccess connect(List<InetSocketAddress> servers);
    }

    /** The stash server that holds the copies of a slot's shards. */
    InetSocketAddress serverFor(int vaultId, int shardIndex);

    CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit);

    /** The chunk and where it goes; the caller releases its bytes. Fails with NOT_FOUND if the entry is gone. */
    CompletableFuture<Copy> get(ShardId id);

    /** Purges the entries, idempotently, from one server. */
    CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids);
}
