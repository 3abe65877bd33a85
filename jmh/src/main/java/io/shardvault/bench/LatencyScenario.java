package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The original measurement: {@code count} sequential PutObject uploads per size over one persistent
 * connection, with an uncounted pause between uploads. Reports mean, p50, p90 and p99.
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
        description = "Sequential PUTs over one connection with an uncounted pause (the original method)")
public final class LatencyScenario implements Scenario {
    @Mixin
    BenchOptions options;

    @Option(names = "--count", defaultValue = "100", description = "Uploads per size (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--warmup", defaultValue = "5", description = "Uncounted uploads per size first (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--pause-ms", defaultValue = "10", description = "Uncounted pause between uploads (default: ${DEFAULT-VALUE})")
    long pauseMs;

    @Option(names = "--sizes", split = ",", defaultValue = "256KiB,1MiB", description = "Object sizes (default: ${DEFAULT-VALUE})")
    List<String> sizes;

    @Override
    public BenchOptions options() {
        return options;
    }

    @Override
    public List<Result> call() throws Exception {
        List<Result> results = new ArrayList<>();
        try (S3Target target = new S3Target(options, 1)) {
            target.ensureBucket();
            for (String s : sizes) {
                long size = Sizes.parse(s);
                byte[] body = S3Target.payload(size, options.seed);
                for (int i = 0; i < warmup; i++) {
                    target.put(target.key("latency-warmup-" + size, i), body);
                }
                long[] nanos = new long[count];
                try (ProgressBar bar = new ProgressBar(System.err, "latency PUT " + Sizes.format(size), count,
                        options.progress())) {
                    for (int i = 0; i < count; i++) {
                        Thread.sleep(pauseMs);
                        long t0 = System.nanoTime();
                        target.put(target.key("latency-" + size, i), body);
                        nanos[i] = System.nanoTime() - t0;
                        bar.step();
                    }
                }
                LatencyStats stats = LatencyStats.of(nanos);
                double busySecs = stats.meanMs() * count / 1e3;
                results.add(new Result(options.label, "latency", "PUT", size, 1, stats, count / busySecs,
                        count * size / busySecs / 1e6, busySecs));
            }
        }
        return results;
    }
}
