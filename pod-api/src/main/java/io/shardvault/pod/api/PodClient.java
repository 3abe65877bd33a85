package io.shardvault.pod.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.pod.api.internal.PodWire;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Calls pods. Every failure arrives through the returned future as an
 * {@link io.shardvault.common.rpc.RpcException} with its code: {@code CHECKSUM_MISMATCH} for a
 * chunk whose CRC does not match, {@code CORRUPT} for stored bytes that fail theirs,
 * {@code NOT_FOUND} for an absent shard.
 *
 * <p>Thread-safe; does not own the {@link RpcClient}.
 */
public final class PodClient {
    private final RpcClient rpc;

    public PodClient(RpcClient rpc) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
    }

    /**
     * Stores a chunk at its offset in a shard. Takes ownership of {@code chunk}.
     *
     * @param crc32c the chunk's CRC32C, checked by the pod on arrival
     */
    public CompletableFuture<Void> write(InetSocketAddress pod, ShardId id, long offsetInShard, int crc32c,
                                         WriteMode mode, ByteBuf chunk) {
        RpcMessage request = new RpcMessage(PodOps.WRITE,
                PodWire.writeHeader(id, offsetInShard, crc32c, mode.wire()), chunk);
        return rpc.call(pod, request).thenApply(response -> {
            response.close();
            return null;
        });
    }

    /** Reads {@code length} bytes of a shard from {@code offset}, CRC-verified by the pod; the caller releases them. */
    public CompletableFuture<ByteBuf> read(InetSocketAddress pod, ShardId id, long offset, int length) {
        RpcMessage request = new RpcMessage(PodOps.READ, PodWire.readHeader(id, offset, length),
                Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            ByteBuf data = response.payload().retain();
            response.close();
            return data;
        });
    }

    /** Deletes a shard; idempotent. Completes with whether it existed. */
    public CompletableFuture<Boolean> delete(InetSocketAddress pod, ShardId id) {
        RpcMessage request = new RpcMessage(PodOps.DELETE, PodWire.idHeader(id), Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            try (response) {
                return response.header().readBoolean();
            }
        });
    }

    /** A page of the pod's shard ids after {@code after}, in key order; at most {@code limit} (&le; 10,000). */
    public CompletableFuture<PodPage> list(InetSocketAddress pod, Optional<ShardId> after, int limit) {
        RpcMessage request = new RpcMessage(PodOps.LIST, PodWire.listHeader(after, limit), Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            try (response) {
                return PodWire.decodeList(response.header(), response.payload());
            }
        });
    }

    /**
     * As {@link #list}, with each shard's age by the pod's own clock (its file's modification time), for the
     * orphan collector. A pod from before this op fails it with {@code UNKNOWN_OP}.
     */
    public CompletableFuture<PodAgedPage> listAged(InetSocketAddress pod, Optional<ShardId> after, int limit) {
        RpcMessage request = new RpcMessage(PodOps.LIST_AGED, PodWire.listHeader(after, limit), Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            try (response) {
                return PodWire.decodeListAged(response.header(), response.payload());
            }
        });
    }

    public CompletableFuture<PodStats> stats(InetSocketAddress pod) {
        return rpc.call(pod, RpcMessage.empty(PodOps.STATS)).thenApply(response -> {
            try (response) {
                return PodWire.decodeStats(response.header());
            }
        });
    }

    /**
     * Tells the pod its slots and stash servers; completes once the pod has persisted them. Fails
     * with CONFLICT when the pod refuses a change it could not make safely (see {@link PodOps}).
     */
    public CompletableFuture<Void> assign(InetSocketAddress pod, PodAssignment assignment) {
        RpcMessage request = new RpcMessage(PodOps.ASSIGN, PodWire.assignHeader(assignment), Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            response.close();
            return null;
        });
    }

    /** Asks the pod to retry its purge deliveries at once; completes with whether it has a stash to deliver to. */
    public CompletableFuture<Boolean> retryPurges(InetSocketAddress pod) {
        return rpc.call(pod, RpcMessage.empty(PodOps.RETRY_PURGES)).thenApply(response -> {
            try (response) {
                return response.header().readBoolean();
            }
        });
    }

    /**
     * Acknowledges the pod's scrub findings numbered up to {@code ackThrough} (0: none), which it then
     * forgets, and completes with the oldest of those it still holds, at most {@code limit} (&le; 10,000).
     * Acknowledge a finding only once its repair is queued: until then the pod gives it out again.
     */
    public CompletableFuture<List<ScrubFinding>> scrubFindings(InetSocketAddress pod, long ackThrough, int limit) {
        RpcMessage request = new RpcMessage(PodOps.SCRUB_FINDINGS, PodWire.scrubFindingsHeader(ackThrough, limit),
                Unpooled.EMPTY_BUFFER);
        return rpc.call(pod, request).thenApply(response -> {
            try (response) {
                return PodWire.decodeScrubFindings(response.payload());
            }
        });
    }
}
