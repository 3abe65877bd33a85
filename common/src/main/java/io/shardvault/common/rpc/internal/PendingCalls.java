package io.shardvault.common.rpc.internal;

import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcMessage;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The calls of one connection still waiting for an answer, by request id. Each completes exactly
 * once: by its answer, its timeout, or the connection closing; whichever comes later finds it
 * gone, and a late answer is released unread.
 *
 * <p>Thread-safe.
 */
public final class PendingCalls {
    private final ConcurrentMap<Long, CompletableFuture<RpcMessage>> calls = new ConcurrentHashMap<>();
    private final Object idle = new Object();

    public void add(long requestId, CompletableFuture<RpcMessage> call) {
        calls.put(requestId, call);
    }

    /**
     * Hands the answer to its caller.
     *
     * @return false when nobody waits for it any more (the caller must release it)
     */
    public boolean complete(long requestId, RpcMessage answer) {
        CompletableFuture<RpcMessage> call = take(requestId);
        return call != null && call.complete(answer);
    }

    public void fail(long requestId, RpcException error) {
        CompletableFuture<RpcMessage> call = take(requestId);
        if (call != null) {
            call.completeExceptionally(error);
        }
    }

    public void failAll(RpcException error) {
        for (Long id : new ArrayList<>(calls.keySet())) {
            fail(id, error);
        }
    }

    public int size() {
        return calls.size();
    }

    /** Waits until no call is pending or the deadline (System.nanoTime) passes. */
    public boolean awaitEmpty(long deadlineNanos) throws InterruptedException {
        synchronized (idle) {
            while (!calls.isEmpty()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.wait(Math.max(1, Math.min(50, left / 1_000_000)));
            }
            return true;
        }
    }

    private CompletableFuture<RpcMessage> take(long requestId) {
        CompletableFuture<RpcMessage> call = calls.remove(requestId);
        if (call != null && calls.isEmpty()) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
        return call;
    }
}
