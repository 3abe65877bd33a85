package io.shardvault.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A mix of requests as a backup repository sees them, after warp's {@code mixed} mode: {@code --objects}
 * objects are written first (not timed), then {@code --clients} threads draw PUT, GET, HEAD, DELETE and LIST by
 * {@code --weights} until {@code --count} requests or {@code --seconds} have passed. A PUT writes a new object,
 * a GET reads a whole object and a HEAD asks for one (both of an object that exists), a DELETE removes one, a
 * LIST asks for one page of the run's keys ({@link KeyPool} keeps them apart). Reports a row per operation
 * (its latency histogram, its requests/s over the mix's wall time) and a row {@code ALL} (every request).
 */
@Command(name = "mixed", mixinStandardHelpOptions = true,
        description = "PUT/GET/HEAD/DELETE/LIST by weights on a pre-written set of objects (warp's mixed mode)")
public final class MixedScenario implements Scenario {
    /** The requests of the mix. */
    enum Op {
        PUT, GET, HEAD, DELETE, LIST
    }

    @Mixin
    BenchOptions options;

    @Option(names = "--weights", split = ",", paramLabel = "OP=WEIGHT",
            defaultValue = "PUT=40,GET=25,HEAD=20,DELETE=10,LIST=5",
            description = "Relative share of each request; one not named is not made (default: ${DEFAULT-VALUE})")
    Map<Op, Integer> weights;

    @Option(names = "--objects", defaultValue = "1000", description = "Objects written before the mix (default: ${DEFAULT-VALUE})")
    int objects;

    @Option(names = "--size", defaultValue = "1MiB", description = "Object size (default: ${DEFAULT-VALUE})")
    String size;

    @Option(names = "--clients", defaultValue = "16", description = "Concurrent clients (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--seconds", defaultValue = "60", description = "Time limit of the mix (default: ${DEFAULT-VALUE})")
    long seconds;

    @Option(names = "--count", defaultValue = "0", description = "Requests in the mix; 0: as many as --seconds allows (default: ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--list-max-keys", defaultValue = "1000", description = "Keys per LIST page (default: ${DEFAULT-VALUE})")
    int listMaxKeys;

    @Override
    public BenchOptions options() {
        return options;
    }

    @Override
    public List<Result> call() throws Exception {
        int[] cumulative = cumulativeWeights();
        long bytes = Sizes.parse(size);
        byte[] body = S3Target.payload(bytes, options.seed);
        Map<Op, Histogram> latencies = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            latencies.put(op, new ConcurrentHistogram(LatencyStats.SIGNIFICANT_DIGITS));
        }
        ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[64 * 1024]);
        ConcurrentRunner.Timings mix;
        try (S3Target target = new S3Target(options, clients)) {
            target.ensureBucket();
            try (ProgressBar bar = new ProgressBar(System.err, "mixed: write " + objects, objects,
                    options.progress())) {
                ConcurrentRunner.run(clients, objects, bar, i -> target.put(target.key("mixed", i), body));
            }
            KeyPool pool = new KeyPool(objects);
            long total = count > 0 ? count : Long.MAX_VALUE;
            try (ProgressBar bar = new ProgressBar(System.err, "mixed x" + clients, total, options.progress())) {
                mix = ConcurrentRunner.run(clients, total, seconds * 1_000_000_000L, bar, n -> {
                    // Request n's draw depends on the seed and n alone: the same mix whatever the scheduling.
                    SplittableRandom random = new SplittableRandom(options.seed * 1_000_003L + n);
                    Op op = draw(cumulative, random.nextInt(cumulative[cumulative.length - 1]));
                    latencies.get(op).recordValue(perform(op, target, pool, random, body, scratch.get()));
                });
            }
        }
        return results(latencies, mix.wallNanos(), bytes);
    }

    /** Makes one request; returns its latency in nanoseconds (the pool's bookkeeping not counted). */
    private long perform(Op op, S3Target target, KeyPool pool, SplittableRandom random, byte[] body,
                         byte[] scratch) throws Exception {
        long key = switch (op) {
            case PUT -> pool.fresh();
            case GET, HEAD, DELETE -> pool.take(random, op);
            case LIST -> -1;
        };
        String name = target.key("mixed", key);
        long start = System.nanoTime();
        switch (op) {
            case PUT -> target.put(name, body);
            case GET -> target.get(name, scratch);
            case HEAD -> target.head(name);
            case DELETE -> target.delete(name);
            case LIST -> target.listPage(target.keyPrefix("mixed"), listMaxKeys);
        }
        long nanos = System.nanoTime() - start;
        if (op == Op.PUT || op == Op.GET || op == Op.HEAD) {
            pool.add(key);
        }
        return nanos;
    }

    private int[] cumulativeWeights() {
        int[] cumulative = new int[Op.values().length];
        int sum = 0;
        for (Op op : Op.values()) {
            int w = weights.getOrDefault(op, 0);
            if (w < 0) {
                throw new IllegalArgumentException("--weights: " + op + "=" + w + " is negative");
            }
            sum += w;
            cumulative[op.ordinal()] = sum;
        }
        if (sum == 0) {
            throw new IllegalArgumentException("--weights: give at least one request a positive weight");
        }
        return cumulative;
    }

    /** The request whose share of the cumulative weights holds {@code ticket} (0 <= ticket < their sum). */
    static Op draw(int[] cumulative, int ticket) {
        for (Op op : Op.values()) {
            if (ticket < cumulative[op.ordinal()]) {
                return op;
            }
        }
        throw new IllegalArgumentException("ticket " + ticket + " beyond the weights' sum");
    }

    private List<Result> results(Map<Op, Histogram> latencies, long wallNanos, long bytes) {
        double secs = wallNanos / 1e9;
        List<Result> results = new ArrayList<>();
        LatencyStats all = LatencyStats.of(new long[0]);
        long transfers = 0;
        for (Map.Entry<Op, Histogram> e : latencies.entrySet()) {
            LatencyStats stats = LatencyStats.of(e.getValue());
            if (stats.count() == 0) {
                continue;
            }
            boolean moves = e.getKey() == Op.PUT || e.getKey() == Op.GET;
            transfers += moves ? stats.count() : 0;
            results.add(new Result(options.label, "mixed", e.getKey().name(), bytes, clients, stats,
                    stats.count() / secs, moves ? stats.count() * bytes / secs / 1e6 : 0, secs));
            all = all.merge(stats);
        }
        results.add(new Result(options.label, "mixed", "ALL", bytes, clients, all, all.count() / secs,
                transfers * bytes / secs / 1e6, secs));
        return results;
    }
}
