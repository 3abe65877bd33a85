package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcHandler;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.pod.api.AgedShard;
import io.shardvault.pod.api.PodOps;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.pod.api.internal.PodWire;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The pod's RPC handler: decodes a request, calls the {@link PodNode}, encodes the answer. Runs on
 * the RPC server's worker threads; a durable write blocks its worker for the fsync. A read whose
 * bytes the page cache holds is answered on the event loop ({@link #answerAtOnce}).
 *
 * <p>Thread-safe.
 */
public final class PodRequestHandler implements RpcHandler {
    private final PodNode node;
    /** The process's one allocator, as the RPC transport's own reads use; a second pool would hold its own chunks. */
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    public PodRequestHandler(PodNode node) {
        this.node = node;
    }

    @Override
    public CompletableFuture<RpcMessage> handle(RpcMessage request) {
        try {
            return CompletableFuture.completedFuture(dispatch(request));
        } catch (RpcException e) {
            return CompletableFuture.failedFuture(e);
        } catch (ShardStoreException e) {
            return CompletableFuture.failedFuture(new RpcException(e.code(), e.getMessage()));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.INTERNAL, e.toString(), e));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.BAD_REQUEST, e.getMessage()));
        }
    }

    /**
     * A READ of a shard whose file is open in the cache and whose bytes are all in the page cache, read with
     * RWF_NOWAIT so that it cannot wait for the disk; anything else (and any error, which the worker's read then
     * answers) goes to a worker.
     */
    @Override
    public RpcMessage answerAtOnce(RpcMessage request) {
        if (request.op() != PodOps.READ) {
            return null;
        }
        try {
            // A duplicate, so that a declined request reaches the worker's decoding as it came.
            PodWire.ReadRange r = PodWire.decodeReadHeader(request.header().duplicate());
            ByteBuf data = node.readIfCached(r.id(), r.offset(), r.length(), alloc);
            return data == null ? null : RpcMessage.ofPayload(PodOps.READ, data);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A listing page: at most {@code limit} items, and the resume token when the pod holds more. */
    private record Page<T>(List<T> items, Optional<ShardId> next) {
        /** Cuts a listing of up to {@code limit + 1} items to {@code limit}. */
        static <T> Page<T> cut(List<T> items, int limit, Function<T, ShardId> idOf) {
            if (items.size() <= limit) {
                return new Page<>(items, Optional.empty());
            }
            List<T> kept = items.subList(0, limit);
            return new Page<>(kept, Optional.of(idOf.apply(kept.get(limit - 1))));
        }
    }

    private static int listLimit(ByteBuf h) {
        int limit = h.readInt();
        if (limit < 1 || limit > PodOps.MAX_LIST_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + PodOps.MAX_LIST_LIMIT + ": " + limit);
        }
        return limit;
    }

    private RpcMessage dispatch(RpcMessage request) throws IOException {
        ByteBuf h = request.header();
        switch (request.op()) {
            case PodOps.WRITE: {
                ShardId id = ShardId.readFrom(h);
                long offset = h.readLong();
                int crc = h.readInt();
                WriteMode mode = WriteMode.fromWire(h.readUnsignedByte());
                node.write(id, offset, crc, request.payload(), mode);
                return RpcMessage.empty(PodOps.WRITE);
            }
            case PodOps.READ: {
                PodWire.ReadRange r = PodWire.decodeReadHeader(h);
                return RpcMessage.ofPayload(PodOps.READ, node.read(r.id(), r.offset(), r.length(), alloc));
            }
            case PodOps.DELETE: {
                ShardId id = ShardId.readFrom(h);
                boolean existed = node.delete(id);
                return new RpcMessage(PodOps.DELETE, Unpooled.buffer(1).writeBoolean(existed), Unpooled.EMPTY_BUFFER);
            }
            case PodOps.LIST: {
                Optional<ShardId> after = h.readBoolean() ? Optional.of(ShardId.readFrom(h)) : Optional.empty();
                int limit = listLimit(h);
                Page<ShardId> page = Page.cut(node.list(after, limit + 1), limit, id -> id);
                ByteBuf[] parts = PodWire.listResponse(page.items(), page.next(), alloc);
                return new RpcMessage(PodOps.LIST, parts[0], parts[1]);
            }
            case PodOps.LIST_AGED: {
                Optional<ShardId> after = h.readBoolean() ? Optional.of(ShardId.readFrom(h)) : Optional.empty();
                int limit = listLimit(h);
                Page<AgedShard> page = Page.cut(node.listAged(after, limit + 1), limit, AgedShard::id);
                ByteBuf[] parts = PodWire.listAgedResponse(page.items(), page.next(), alloc);
                return new RpcMessage(PodOps.LIST_AGED, parts[0], parts[1]);
            }
            case PodOps.STATS:
                return new RpcMessage(PodOps.STATS, PodWire.statsHeader(node.stats(), alloc), Unpooled.EMPTY_BUFFER);
            case PodOps.RETRY_PURGES: {
                boolean hasStash = node.retryPurgesNow();
                return new RpcMessage(PodOps.RETRY_PURGES, Unpooled.buffer(1).writeBoolean(hasStash),
                        Unpooled.EMPTY_BUFFER);
            }
            case PodOps.ASSIGN:
                node.assign(PodWire.decodeAssign(h));
                return RpcMessage.empty(PodOps.ASSIGN);
            case PodOps.SCRUB_FINDINGS: {
                long ackThrough = h.readLong();
                int limit = h.readInt();
                if (limit < 1 || limit > PodOps.MAX_SCRUB_FINDINGS_LIMIT) {
                    throw new IllegalArgumentException("limit must be in 1.." + PodOps.MAX_SCRUB_FINDINGS_LIMIT + ": "
                            + limit);
                }
                List<ScrubFinding> findings = node.scrubFindings(ackThrough, limit);
                ByteBuf[] parts = PodWire.scrubFindingsResponse(node.heldScrubFindings(), findings, alloc);
                return new RpcMessage(PodOps.SCRUB_FINDINGS, parts[0], parts[1]);
            }
            default:
                throw new RpcException(ErrorCode.UNKNOWN_OP, "pod does not serve op 0x"
                        + Integer.toHexString(request.op()));
        }
    }

}
