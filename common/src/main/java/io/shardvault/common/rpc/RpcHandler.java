package io.shardvault.common.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * What a service does with a request. The server calls {@link #handle} on one of its worker threads,
 * never on a Netty event loop, so it may do a little blocking work, but long waits belong in the
 * returned future. What can be answered at once without blocking, {@link #answerAtOnce} answers on
 * the event loop instead.
 *
 * <p>The server releases {@code request} when the returned future completes; retain its buffers to
 * keep them longer. Ownership of the response passes to the server. Fail the future with an
 * {@link RpcException} to send its code; any other failure is sent as {@code INTERNAL}.
 */
@FunctionalInterface
public interface RpcHandler {
    CompletableFuture<RpcMessage> handle(RpcMessage request);

    /**
     * The answer to {@code request} if it can be made at once, on the Netty event loop that decoded it; else
     * null, and the server hands the request to {@link #handle} on a worker. Saves what a worker costs, two
     * thread hand-offs (waking the worker, then the event loop for its answer), where there is nothing to wait
     * for: a pod's read of bytes the page cache holds. It must never block (no I/O that may wait for a disk, no
     * lock held across I/O): a wait here stalls every connection of the event loop. It leaves {@code request}
     * as it found it, since a null answer passes the request on, and answers null rather than an error: the
     * worker's {@link #handle} answers errors.
     */
    default RpcMessage answerAtOnce(RpcMessage request) {
        return null;
    }
}
