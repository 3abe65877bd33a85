package io.shardvault.common.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * What a service does with a request. The server calls it on one of its worker threads, never on
 * a Netty event loop, so it may do a little blocking work, but long waits belong in the returned
 * future.
 *
 * <p>The server releases {@code request} when the returned future completes; retain its buffers to
 * keep them longer. Ownership of the response passes to the server. Fail the future with an
 * {@link RpcException} to send its code; any other failure is sent as {@code INTERNAL}.
 */
@FunctionalInterface
public interface RpcHandler {
    CompletableFuture<RpcMessage> handle(RpcMessage request);
}
