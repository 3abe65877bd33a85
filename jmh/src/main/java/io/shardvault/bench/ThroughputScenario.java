package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * PUT then GET of {@code count} objects per (size, clients) pair, with {@code clients} threads sharing a pool
 * of as many connections. Reports objects/s and MB/s over the step's wall time, and p50/p99 latency.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true,
        description = "Concurrent PUT and GET at several client counts and sizes")
public final class ThroughputScenario implements Scenario {
    @Mixin
    BenchOptions options;

    @Option(names = "--clients", split = ",", defaultValue = "1,8,32,64", description = "Client counts (default: ${DEFAULT-VALUE})")
    List<Integer> clients;

    @Option(names = "--sizes", split = ",", defaultValue = "256KiB,1MiB,16MiB", description = "Object sizes (default: ${DEFAULT-VALUE})")
    List<String> sizes;

    @Option(names = "--count", defaultValue = "200", description = "Objects per step; at least the client count (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--max-bytes", defaultValue = "2GiB", description = "Cap on bytes per step; lowers the count for large objects (default: ${DEFAULT-VALUE})")
    String maxBytes;

    @Option(names = "--ops", split = ",", defaultValue = "PUT,GET", description = "Operations (default: ${DEFAULT-VALUE})")
    List<String> ops;

    @Override
    public BenchOptions options() {
        return options;
    }

    @Override
    public List<Result> call() throws Exception {
        List<Result> results = new ArrayList<>();
        int maxClients = clients.stream().mapToInt(Integer::intValue).max().orElse(1);
        long cap = Sizes.parse(maxBytes);
        try (S3Target target = new S3Target(options, maxClients)) {
            target.ensureBucket();
            for (String s : sizes) {
                long size = Sizes.parse(s);
                byte[] body = S3Target.payload(size, options.seed);
                for (int c : clients) {
                    long n = Math.max(c, Math.min(count, cap / size));
                    String scope = "tp-" + size + "-" + c;
                    if (ops.contains("PUT") || ops.contains("GET")) {
                        try (ProgressBar bar = new ProgressBar(System.err,
                                "PUT " + Sizes.format(size) + " x" + c, n, options.progress())) {
                            ConcurrentRunner.Timings t = ConcurrentRunner.run(c, n, bar,
                                    i -> target.put(target.key(scope, i), body));
                            if (ops.contains("PUT")) {
                                results.add(ConcurrentRunner.result(options, "throughput", "PUT", size, c, t));
                            }
                        }
                    }
                    if (ops.contains("GET")) {
                        ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[64 * 1024]);
                        try (ProgressBar bar = new ProgressBar(System.err,
                                "GET " + Sizes.format(size) + " x" + c, n, options.progress())) {
                            ConcurrentRunner.Timings t = ConcurrentRunner.run(c, n, bar,
                                    i -> target.get(target.key(scope, i), scratch.get()));
                            results.add(ConcurrentRunner.result(options, "throughput", "GET", size, c, t));
                        }
                    }
                }
            }
        }
        return results;
    }
}
