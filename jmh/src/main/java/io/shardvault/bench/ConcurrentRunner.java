package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Runs numbered operations on {@code clients} threads, each thread taking the next number until {@code total}
 * are taken or the time limit has passed, and records each operation's latency. The first failure aborts the
 * step.
 */
final class ConcurrentRunner {
    /** One timed operation; {@code n} is the operation's number in 0..total-1. */
    interface Op {
        void run(long n) throws Exception;
    }

    /** The operations' latency distribution and the step's wall time. */
    record Timings(LatencyStats latency, long wallNanos) {
    }

    private ConcurrentRunner() {
    }

    static Timings run(int clients, long total, ProgressBar progress, Op op) throws Exception {
        return run(clients, total, Long.MAX_VALUE, progress, op);
    }

    /** As {@link #run(int, long, ProgressBar, Op)}, taking no new operation once {@code maxNanos} have passed. */
    static Timings run(int clients, long total, long maxNanos, ProgressBar progress, Op op) throws Exception {
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        // One histogram per thread: recording stays uncontended, and they merge exactly afterwards.
        List<Future<Histogram>> futures = new ArrayList<>();
        try {
            for (int c = 0; c < clients; c++) {
                futures.add(pool.submit(() -> {
                    Histogram own = LatencyStats.newHistogram();
                    long n;
                    while (System.nanoTime() - start < maxNanos && (n = next.getAndIncrement()) < total) {
                        long t0 = System.nanoTime();
                        op.run(n);
                        own.recordValue(System.nanoTime() - t0);
                        progress.step();
                    }
                    return own;
                }));
            }
            List<Histogram> perThread = new ArrayList<>();
            for (Future<Histogram> f : futures) {
                try {
                    perThread.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    next.set(total);
                    throw e.getCause() instanceof Exception ex ? ex : e;
                }
            }
            long wallNanos = System.nanoTime() - start;
            Histogram all = LatencyStats.newHistogram();
            perThread.forEach(all::add);
            return new Timings(LatencyStats.of(all), wallNanos);
        } finally {
            pool.shutdownNow();
        }
    }

    static Result result(BenchOptions o, String scenario, String op, long size, int clients, Timings t) {
        double secs = t.wallNanos() / 1e9;
        double objs = t.latency().count() / secs;
        return new Result(o.label, scenario, op, size, clients, t.latency(), objs, objs * size / 1e6, secs);
    }
}
