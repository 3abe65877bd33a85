package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@code total} numbered operations on {@code clients} threads, each thread taking the next number until
 * all are taken, and records each operation's latency. The first failure aborts the step.
 */
final class ConcurrentRunner {
    /** One timed operation; {@code n} is the operation's number in 0..total-1. */
    interface Op {
        void run(long n) throws Exception;
    }

    /** Latencies in completion order and the step's wall time. */
    record Timings(long[] nanos, long wallNanos) {
    }

    private ConcurrentRunner() {
    }

    static Timings run(int clients, long total, ProgressBar progress, Op op) throws Exception {
        long[] nanos = new long[Math.toIntExact(total)];
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                futures.add(pool.submit(() -> {
                    long n;
                    while ((n = next.getAndIncrement()) < total) {
                        long t0 = System.nanoTime();
                        op.run(n);
                        nanos[(int) n] = System.nanoTime() - t0;
                        progress.step();
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    next.set(total);
                    throw e.getCause() instanceof Exception ex ? ex : e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new Timings(nanos, System.nanoTime() - start);
    }

    static Result result(BenchOptions o, String scenario, String op, long size, int clients, Timings t) {
        double secs = t.wallNanos() / 1e9;
        double objs = t.nanos().length / secs;
        return new Result(o.label, scenario, op, size, clients, LatencyStats.of(t.nanos()), objs,
                objs * size / 1e6, secs);
    }
}
