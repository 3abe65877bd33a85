package io.shardvault.stash.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.stash.api.internal.StashWire;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Calls stash servers over the internal protocol. Every failure reaches the caller through the
 * returned future, never as a throw: an {@link RpcException} with its stable code for a failed
 * call (remote errors, timeouts, unreachable peers; {@code INTERNAL} for a malformed answer), an
 * {@link IllegalArgumentException} or {@link NullPointerException} for a bad argument.
 *
 * <p>Thread-safe. It does not own the {@link RpcClient}: closing it leaves the RPC client open.
 */
public final class StashClient implements AutoCloseable {
    private final RpcClient rpc;
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    /** @param rpc the RPC client to call through; the caller keeps ownership */
    public StashClient(RpcClient rpc) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
    }

    /**
     * Stores a chunk. The future completes only once the entry is durable on the stash (its WAL
     * synced); storing the same id again replaces the entry.
     *
     * <p>Fails with {@code STASH_FULL} when the stash has no room within its budget,
     * {@code CHECKSUM_MISMATCH} when {@code crc32c} does not match the bytes that arrived, and
     * {@code BUSY} when its commit queue is full.
     *
     * @param chunk the bytes; ownership passes to this call, whatever happens (to send the same
     *              chunk to a pod as well, pass {@code chunk.retainedDuplicate()} here)
     */
    public CompletableFuture<Void> put(InetSocketAddress stash, ShardId id, long offsetInShard, int crc32c,
                                       ByteBuf chunk) {
        if (chunk == null) {
            return CompletableFuture.failedFuture(new NullPointerException("chunk"));
        }
        try {
            Objects.requireNonNull(stash, "stash");
            Objects.requireNonNull(id, "id");
            if (offsetInShard < 0) {
                throw new IllegalArgumentException("offsetInShard must be >= 0: " + offsetInShard);
            }
        } catch (RuntimeException e) {
            chunk.release();
            return CompletableFuture.failedFuture(e);
        }
        RpcMessage request = new RpcMessage(StashOps.PUT,
                StashWire.encodePutHeader(alloc, id, offsetInShard, crc32c), chunk);
        return rpc.call(stash, request).thenApply(response -> {
            response.close();
            return null;
        });
    }

    /**
     * Stores several chunks on one stash server in one call (PUT_MANY): each one as {@link #put}
     * would, with its own outcome. Returns one future per chunk, in order; each completes once its
     * entry is durable, or fails with its own error ({@code STASH_FULL}, {@code CHECKSUM_MISMATCH},
     * {@code BUSY}), or with the call's error when the call itself fails. A stripe's chunks for one
     * server then travel in one request and usually share one group commit.
     *
     * <p>Ownership of every chunk passes to this call, whatever happens.
     */
    public List<CompletableFuture<Void>> putAll(InetSocketAddress stash, List<StashPut> puts) {
        List<CompletableFuture<Void>> outcomes = new ArrayList<>(puts.size());
        for (int i = 0; i < puts.size(); i++) {
            outcomes.add(new CompletableFuture<>());
        }
        if (puts.isEmpty()) {
            return outcomes;
        }
        CompositeByteBuf payload = alloc.compositeBuffer(puts.size());
        List<StashWire.PutManyEntry> entries = new ArrayList<>(puts.size());
        for (StashPut put : puts) {
            entries.add(new StashWire.PutManyEntry(put.id(), put.offsetInShard(), put.crc32c(),
                    put.chunk().readableBytes()));
            payload.addComponent(true, put.chunk());
        }
        RuntimeException bad = null;
        if (stash == null) {
            bad = new NullPointerException("stash");
        } else if (puts.size() > StashOps.MAX_PUT_MANY_CHUNKS) {
            bad = new IllegalArgumentException(puts.size() + " chunks in one call; at most "
                    + StashOps.MAX_PUT_MANY_CHUNKS);
        } else if (puts.stream().anyMatch(p -> p.offsetInShard() < 0)) {
            bad = new IllegalArgumentException("offsetInShard must be >= 0");
        }
        if (bad != null) {
            payload.release();
            RuntimeException failure = bad;
            outcomes.forEach(f -> f.completeExceptionally(failure));
            return outcomes;
        }
        RpcMessage request = new RpcMessage(StashOps.PUT_MANY, StashWire.encodePutManyHeader(alloc, entries), payload);
        rpc.call(stash, request).whenComplete((response, failure) -> {
            if (failure != null) {
                outcomes.forEach(f -> f.completeExceptionally(failure));
                return;
            }
            List<RpcException> results;
            try (response) {
                results = decoded(stash, () -> StashWire.decodePutManyAnswer(response.header(), puts.size()));
            } catch (RpcException e) {
                outcomes.forEach(f -> f.completeExceptionally(e));
                return;
            }
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) == null) {
                    outcomes.get(i).complete(null);
                } else {
                    outcomes.get(i).completeExceptionally(results.get(i));
                }
            }
        });
        return outcomes;
    }

    /**
     * Reads one entry. The stash checks its CRC before sending ({@code CORRUPT} if bad) and this
     * client checks it again on receipt ({@code CORRUPT} if bad). Fails with {@code NOT_FOUND} when
     * the stash holds no entry for {@code id}. The caller closes the returned entry.
     */
    public CompletableFuture<StashEntry> get(InetSocketAddress stash, ShardId id) {
        if (stash == null || id == null) {
            return CompletableFuture.failedFuture(new NullPointerException("stash and id are required"));
        }
        RpcMessage request = new RpcMessage(StashOps.GET, StashWire.encodeShardId(alloc, id), Unpooled.EMPTY_BUFFER);
        return rpc.call(stash, request).thenCompose(response -> {
            try (response) {
                StashEntryInfo info = decoded(stash, () -> StashWire.readEntryInfo(response.header()));
                ByteBuf data = response.payload();
                if (!info.id().equals(id)) {
                    throw new RpcException(ErrorCode.INTERNAL, "asked " + stash + " for " + id + ", got " + info.id());
                }
                if (data.readableBytes() != info.length()) {
                    throw new RpcException(ErrorCode.CORRUPT, id + " from " + stash + ": " + data.readableBytes()
                            + " bytes received, " + info.length() + " announced");
                }
                int actual = Crc32c.of(data);
                if (actual != info.crc32c()) {
                    throw new RpcException(ErrorCode.CORRUPT, id + " from " + stash + ": received bytes have CRC32C "
                            + Crc32c.format(actual) + ", stored CRC32C is " + Crc32c.format(info.crc32c()));
                }
                return CompletableFuture.completedFuture(new StashEntry(info, data.retain()));
            } catch (RpcException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /**
     * Deletes entries. Idempotent: ids the stash does not hold are fine. Completes once the
     * deletions are durable.
     */
    public CompletableFuture<Void> purge(InetSocketAddress stash, Collection<ShardId> ids) {
        if (stash == null || ids == null || ids.stream().anyMatch(Objects::isNull)) {
            return CompletableFuture.failedFuture(new NullPointerException("stash and ids are required"));
        }
        if (ids.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        RpcMessage request = new RpcMessage(StashOps.PURGE, Unpooled.EMPTY_BUFFER,
                StashWire.encodePurgePayload(alloc, ids));
        return rpc.call(stash, request).thenApply(response -> {
            response.close();
            return null;
        });
    }

    /**
     * One page of the entries of pod slot {@code (vaultId, shardIndex)}, in key order (by
     * fileId). The stash may return fewer than {@code limit} entries (it caps pages); keep
     * calling with {@link StashPage#next()} until it is empty.
     *
     * @param after resume after this id (exclusive); empty to start at the beginning of the slot
     * @param limit most entries wanted, {@code >= 1}
     */
    public CompletableFuture<StashPage> list(InetSocketAddress stash, int vaultId, int shardIndex,
                                             Optional<ShardId> after, int limit) {
        if (stash == null || after == null) {
            return CompletableFuture.failedFuture(new NullPointerException("stash and after are required"));
        }
        if (vaultId < 0 || shardIndex < 0 || shardIndex > ShardId.MAX_SHARD_INDEX) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "no such pod slot: vaultId=" + vaultId + " shardIndex=" + shardIndex));
        }
        if (limit < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("limit must be >= 1: " + limit));
        }
        RpcMessage request = new RpcMessage(StashOps.LIST,
                StashWire.encodeListRequest(alloc, vaultId, shardIndex, limit, after), Unpooled.EMPTY_BUFFER);
        return rpc.call(stash, request).thenCompose(response -> {
            try (response) {
                Optional<ShardId> next = decoded(stash, () -> StashWire.decodeNext(response.header()));
                List<StashEntryInfo> entries = decoded(stash, () -> StashWire.decodeEntryInfos(response.payload()));
                return CompletableFuture.completedFuture(new StashPage(entries, next));
            } catch (RpcException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /** The stash's occupancy. */
    public CompletableFuture<StashStats> stats(InetSocketAddress stash) {
        if (stash == null) {
            return CompletableFuture.failedFuture(new NullPointerException("stash is required"));
        }
        return rpc.call(stash, RpcMessage.empty(StashOps.STATS)).thenCompose(response -> {
            try (response) {
                return CompletableFuture.completedFuture(decoded(stash, () -> StashWire.decodeStats(response.header())));
            } catch (RpcException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    private interface Decoder<T> {
        T decode() throws RpcException;
    }

    /** Decodes an answer; a malformed one is the server's fault, so INTERNAL rather than BAD_REQUEST. */
    private static <T> T decoded(InetSocketAddress stash, Decoder<T> decoder) throws RpcException {
        try {
            return decoder.decode();
        } catch (RpcException e) {
            throw new RpcException(ErrorCode.INTERNAL, "malformed answer from stash " + stash + ": " + e.detail(), e);
        }
    }

    /** Does nothing: the client owns nothing; the RPC client stays open. */
    @Override
    public void close() {
    }
}
