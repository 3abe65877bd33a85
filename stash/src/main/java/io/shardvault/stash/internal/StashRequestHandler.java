package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcHandler;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.internal.StashWire;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Translates stash RPCs: decodes a request ({@link StashWire}), calls the {@link StashService},
 * encodes its answer or maps its failure to an error code. No domain logic here.
 *
 * <p>Thread-safe: stateless beyond the service.
 */
public final class StashRequestHandler implements RpcHandler {
    private final StashService service;
    private final StashMetrics metrics;
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    public StashRequestHandler(StashService service, StashMetrics metrics) {
        this.service = service;
        this.metrics = metrics;
    }

    @Override
    public CompletableFuture<RpcMessage> handle(RpcMessage request) {
        long start = System.nanoTime();
        String op = StashOps.name(request.op());
        CompletableFuture<RpcMessage> answer = dispatch(request);
        answer.whenComplete((response, failure) -> metrics.request(op,
                failure == null ? "ok" : toRpc(failure).code().name(), System.nanoTime() - start));
        return answer;
    }

    private CompletableFuture<RpcMessage> dispatch(RpcMessage request) {
        try {
            return switch (request.op()) {
                case StashOps.PUT -> put(request);
                case StashOps.PUT_MANY -> putMany(request);
                case StashOps.GET -> get(request);
                case StashOps.PURGE -> purge(request);
                case StashOps.LIST -> list(request);
                case StashOps.STATS -> CompletableFuture.completedFuture(new RpcMessage(StashOps.STATS,
                        StashWire.encodeStats(alloc, service.stats()), Unpooled.EMPTY_BUFFER));
                default -> throw new RpcException(ErrorCode.UNKNOWN_OP, "the stash does not serve op "
                        + StashOps.name(request.op()));
            };
        } catch (Exception e) {
            return CompletableFuture.failedFuture(toRpc(e));
        }
    }

    private CompletableFuture<RpcMessage> put(RpcMessage request) throws RpcException {
        StashWire.PutHeader header = StashWire.decodePutHeader(request.header());
        return service.put(header.id(), header.offsetInShard(), header.crc32c(), request.payload())
                .handle((ok, failure) -> answer(StashOps.PUT, failure));
    }

    /** Each chunk goes to the committer as its own PUT; the answer waits for all and says how each went. */
    private CompletableFuture<RpcMessage> putMany(RpcMessage request) throws RpcException {
        ByteBuf payload = request.payload();
        List<StashWire.PutManyEntry> entries = StashWire.decodePutManyHeader(request.header(), payload.readableBytes());
        List<CompletableFuture<Void>> puts = new ArrayList<>(entries.size());
        int at = payload.readerIndex();
        for (StashWire.PutManyEntry entry : entries) {
            // The service copies the bytes before it returns, so a plain slice of the request will do.
            puts.add(service.put(entry.id(), entry.offsetInShard(), entry.crc32c(), payload.slice(at, entry.length())));
            at += entry.length();
        }
        List<CompletableFuture<RpcException>> outcomes = puts.stream()
                .map(put -> put.handle((ok, failure) -> failure == null ? null : toRpc(failure)))
                .toList();
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
                .thenApply(all -> new RpcMessage(StashOps.PUT_MANY, StashWire.encodePutManyAnswer(alloc,
                        outcomes.stream().map(CompletableFuture::join).toList()), Unpooled.EMPTY_BUFFER));
    }

    private CompletableFuture<RpcMessage> get(RpcMessage request) throws Exception {
        StashService.CheckedChunk chunk = service.get(StashWire.decodeShardId(request.header()));
        return CompletableFuture.completedFuture(new RpcMessage(StashOps.GET,
                StashWire.encodeEntryInfo(alloc, chunk.info()),
                Unpooled.wrappedBuffer(chunk.chunkValue(), chunk.chunkOffset(), chunk.info().length())));
    }

    private CompletableFuture<RpcMessage> purge(RpcMessage request) throws RpcException {
        return service.purge(StashWire.decodePurgePayload(request.payload()))
                .handle((deleted, failure) -> {
                    if (failure != null) {
                        throw new CompletionException(toRpc(failure));
                    }
                    return new RpcMessage(StashOps.PURGE, StashWire.encodeCount(alloc, deleted), Unpooled.EMPTY_BUFFER);
                });
    }

    private CompletableFuture<RpcMessage> list(RpcMessage request) throws Exception {
        StashWire.ListRequest list = StashWire.decodeListRequest(request.header());
        StashPage page = service.list(list.vaultId(), list.shardIndex(), list.after(), list.limit());
        return CompletableFuture.completedFuture(new RpcMessage(StashOps.LIST,
                StashWire.encodeNext(alloc, page.next()), StashWire.encodeEntryInfos(alloc, page.entries())));
    }

    private static RpcMessage answer(int op, Throwable failure) {
        if (failure != null) {
            throw new CompletionException(toRpc(failure));
        }
        return RpcMessage.empty(op);
    }

    /** The error code a failure is sent with. */
    static RpcException toRpc(Throwable failure) {
        Throwable t = ShardvaultException.unwrap(failure);
        if (t instanceof RpcException rpc) {
            return rpc;
        }
        if (t instanceof ShardvaultException e) {
            return new RpcException(e.code(), e.getMessage(), e);
        }
        if (t instanceof IllegalArgumentException bad) {
            return new RpcException(ErrorCode.BAD_REQUEST, bad.getMessage(), bad);
        }
        return new RpcException(ErrorCode.INTERNAL, String.valueOf(t), t);
    }
}
