package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Delivers the purge queue's events to the stash: reads a batch from the checkpoint, groups it by
 * the stash server holding each shard, sends one purge per server in parallel, and commits the
 * checkpoint once every group is acknowledged. At-least-once: a failed group is retried with
 * exponential backoff (with jitter) for as long as its server is away, and events are redelivered
 * after a restart if the checkpoint had not moved. Stash purges are idempotent, so repeats are
 * harmless. A server that stays away holds back the events behind its own (head-of-line), which
 * keeps memory bounded to one batch. A partial batch waits up to the linger for more events, so
 * that one delivery (one stash commit, one checkpoint) covers many flushed shards; delaying a purge
 * only keeps the stash copy of an already durable shard longer. (One delivery per flushed shard
 * cost each PUT 20 purge RPCs, 20 stash commits and 40 checkpoint syncs, issue #11.)
 *
 * <p>The thread sleeps until there is something to send: it blocks in
 * {@link PurgeQueue#awaitBatch}, which an append wakes, and in a back-off, which
 * {@link #retryNow()} ends. It never polls (issue #18: twenty pods' senders waking every 50-200 ms
 * cost measurable CPU per PUT).
 *
 * <p>One thread, owned by this object. Thread-safe to close from any thread.
 */
public final class PurgeSender implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(PurgeSender.class);
    /**
     * How long an idle sender waits before it reads the queue anyway. Appends wake it, so this
     * is only a backstop; it is not a poll interval.
     */
    private static final long IDLE_BACKSTOP_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final PurgeQueue queue;
    private final StashAccess stash;
    private final int batchSize;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final Duration sendTimeout;
    private final long lingerMillis;
    private final PodMetrics metrics;
    private final Thread thread;
    private final SplittableRandom jitter = new SplittableRandom();
    private volatile boolean running = true;
    /** Set by an operator ({@link #retryNow()}): cut the current back-off short and start over from the minimum. */
    private volatile boolean retryRequested;

    public PurgeSender(String name, PurgeQueue queue, StashAccess stash, int batchSize, Duration minBackoff,
                       Duration maxBackoff, Duration sendTimeout, Duration linger, PodMetrics metrics) {
        this.queue = queue;
        this.stash = stash;
        this.batchSize = batchSize;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
        this.sendTimeout = sendTimeout;
        this.lingerMillis = linger.toMillis();
        this.metrics = metrics;
        this.thread = new Thread(this::run, "purge-sender-" + name);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        long backoffNanos = minBackoff.toNanos();
        Set<InetSocketAddress> deliveredInBatch = new HashSet<>();
        PurgeQueue.Batch current = null;
        while (running) {
            try {
                if (current == null) {
                    // Blocks until a full batch or the linger's end; reads the queue only then.
                    queue.awaitBatch(batchSize, lingerMillis, IDLE_BACKSTOP_NANOS);
                    current = queue.peek(batchSize);
                    deliveredInBatch.clear();
                    if (current.events().isEmpty()) {
                        current = null;
                        continue;
                    }
                }
                Map<InetSocketAddress, List<ShardId>> groups = new LinkedHashMap<>();
                for (PurgeQueue.Event e : current.events()) {
                    InetSocketAddress server = stash.serverFor(e.id().vaultId(), e.id().shardIndex());
                    if (!deliveredInBatch.contains(server)) {
                        groups.computeIfAbsent(server, s -> new ArrayList<>()).add(e.id());
                    }
                }
                List<CompletableFuture<InetSocketAddress>> sends = new ArrayList<>();
                for (Map.Entry<InetSocketAddress, List<ShardId>> g : groups.entrySet()) {
                    sends.add(stash.purge(g.getKey(), g.getValue())
                            .orTimeout(sendTimeout.toMillis(), TimeUnit.MILLISECONDS)
                            .thenApply(v -> g.getKey()));
                }
                Throwable failure = null;
                for (CompletableFuture<InetSocketAddress> send : sends) {
                    try {
                        deliveredInBatch.add(send.join());
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
                if (failure == null) {
                    queue.commit(current);
                    metrics.purgesDelivered(current.events().size());
                    current = null;
                    backoffNanos = minBackoff.toNanos();
                } else {
                    metrics.purgeFailure();
                    long sleep = backoffNanos / 2 + jitter.nextLong(backoffNanos / 2 + 1);
                    LOG.warn("purge delivery failed, retrying in {} ms: {}", TimeUnit.NANOSECONDS.toMillis(sleep),
                            RpcException.from(failure).getMessage());
                    pause(sleep);
                    backoffNanos = retryRequested ? minBackoff.toNanos()
                            : Math.min(maxBackoff.toNanos(), backoffNanos * 2);
                    retryRequested = false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (running) {
                    LOG.error("purge sender failed; retrying", e);
                    pause(backoffNanos);
                    backoffNanos = Math.min(maxBackoff.toNanos(), backoffNanos * 2);
                    current = null;
                }
            }
        }
    }

    /** Waits out a back-off; {@link #retryNow()} and {@link #close()} end it early. */
    private void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left;
        while (running && !retryRequested && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    /** Ends the current back-off now: the next delivery attempt starts at once. */
    public void retryNow() {
        retryRequested = true;
        LockSupport.unpark(thread);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
