package io.shardvault.common.rpc.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcHandler;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcMetrics;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a server's requests on its worker pool, off the event loops, unless the handler answers one at
 * once on the calling event loop ({@link RpcHandler#answerAtOnce}), and keeps count of them so
 * that shutdown can drain. A request counts as in flight from {@link #dispatch} until its answer
 * has been handed to the socket ({@link #answered}).
 *
 * <p>Thread-safe.
 */
public final class RequestDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    private final RpcHandler handler;
    private final ExecutorService workers;
    private final RpcMetrics metrics;
    private final Set<CompletableFuture<RpcMessage>> running = ConcurrentHashMap.newKeySet();
    private final Object idle = new Object();
    private int inFlight;
    private volatile boolean draining;

    /**
     * @param workers a bounded pool that throws {@link RejectedExecutionException} when full
     */
    public RequestDispatcher(RpcHandler handler, ExecutorService workers, RpcMetrics metrics) {
        this.handler = handler;
        this.workers = workers;
        this.metrics = metrics;
    }

    /**
     * Runs the handler on a worker. The future fails with {@code SHUTTING_DOWN} while draining,
     * {@code BUSY} when the queue is full, and {@code INTERNAL} when the handler throws. The
     * request is released when the future completes. Call {@link #answered} once the answer has
     * been written, whatever the outcome.
     */
    public CompletableFuture<RpcMessage> dispatch(RpcMessage request) {
        synchronized (idle) {
            inFlight++;
        }
        CompletableFuture<RpcMessage> result = new CompletableFuture<>();
        int op = request.op();
        long start = System.nanoTime();
        result.whenComplete((response, failure) -> {
            request.close();
            metrics.recordServerRequest(op, failure, System.nanoTime() - start);
        });
        if (draining) {
            result.completeExceptionally(new RpcException(ErrorCode.SHUTTING_DOWN, "server is shutting down"));
            return result;
        }
        running.add(result);
        result.whenComplete((response, failure) -> running.remove(result));
        RpcMessage atOnce = answerAtOnce(request);
        if (atOnce != null) {
            result.complete(atOnce);
            return result;
        }
        try {
            workers.execute(() -> invoke(request, result));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new RpcException(ErrorCode.BUSY, "request queue full"));
        }
        return result;
    }

    /** The handler's answer at once, or null; a handler that throws here is a bug, and the worker then tries. */
    private RpcMessage answerAtOnce(RpcMessage request) {
        try {
            return handler.answerAtOnce(request);
        } catch (RuntimeException e) {
            LOG.error("answerAtOnce threw for op={}; handing the request to a worker", request.op(), e);
            return null;
        }
    }

    private void invoke(RpcMessage request, CompletableFuture<RpcMessage> result) {
        if (result.isDone()) {
            return;
        }
        try {
            CompletableFuture<RpcMessage> answer = handler.handle(request);
            if (answer == null) {
                throw new IllegalStateException("handler returned no future for op " + request.op());
            }
            answer.whenComplete((response, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(RpcException.from(failure));
                } else if (!result.complete(response)) {
                    response.close();
                }
            });
        } catch (RuntimeException e) {
            LOG.error("handler failed op={}", request.op(), e);
            result.completeExceptionally(new RpcException(ErrorCode.INTERNAL, e.toString(), e));
        }
    }

    /** The answer to one dispatched request has been written (or could not be). */
    public void answered() {
        synchronized (idle) {
            inFlight--;
            if (inFlight == 0) {
                idle.notifyAll();
            }
        }
    }

    /** From now on every new request is answered {@code SHUTTING_DOWN}. */
    public void startDraining() {
        draining = true;
    }

    /**
     * Waits until no request is in flight, or the timeout passes; then fails what still runs
     * with {@code SHUTTING_DOWN}.
     *
     * @return whether every request finished in time
     */
    public boolean awaitDrained(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                idle.wait(Math.max(1, left / 1_000_000));
            }
            if (inFlight == 0) {
                return true;
            }
        }
        for (CompletableFuture<RpcMessage> stuck : running) {
            stuck.completeExceptionally(new RpcException(ErrorCode.SHUTTING_DOWN, "server shut down before answering"));
        }
        return false;
    }

    /** Requests dispatched and not yet answered. */
    public int inFlight() {
        synchronized (idle) {
            return inFlight;
        }
    }
}
