package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Single-stream GETs: for each size, uploads one object, then GETs it {@code count} times on one connection,
 * timing the first byte (row {@code TTFB}) and the whole body (row {@code GET}, whose MB/s is the
 * single-stream throughput).
 */
@Command(name = "ttfb", mixinStandardHelpOptions = true,
        description = "GET time-to-first-byte percentiles and single-stream throughput by size")
public final class TtfbScenario implements Callable<List<Result>> {
    @Mixin
    BenchOptions options;

    @Option(names = "--sizes", split = ",",
            defaultValue = "16KiB,64KiB,256KiB,1MiB,4MiB,16MiB,32MiB", description = "Object sizes (default: ${DEFAULT-VALUE})")
    List<String> sizes;

    @Option(names = "--count", defaultValue = "50", description = "GETs per size (default: ${DEFAULT-VALUE})")
    int count;

    @Override
    public List<Result> call() throws Exception {
        List<Result> results = new ArrayList<>();
        byte[] scratch = new byte[64 * 1024];
        try (S3Target target = new S3Target(options, 1)) {
            target.ensureBucket();
            for (String s : sizes) {
                long size = Sizes.parse(s);
                String key = target.key("ttfb", size);
                target.put(key, S3Target.payload(size, options.seed));
                target.get(key, scratch);
                long[] first = new long[count];
                long[] whole = new long[count];
                try (ProgressBar bar = new ProgressBar(System.err, "ttfb GET " + Sizes.format(size), count,
                        options.progress())) {
                    for (int i = 0; i < count; i++) {
                        long[] t = target.get(key, scratch);
                        first[i] = t[0];
                        whole[i] = t[1];
                        bar.step();
                    }
                }
                LatencyStats total = LatencyStats.of(whole);
                double secs = total.meanMs() * count / 1e3;
                results.add(new Result(options.label, "ttfb", "TTFB", size, 1, LatencyStats.of(first), 0, 0, 0));
                results.add(new Result(options.label, "ttfb", "GET", size, 1, total, count / secs,
                        count * size / secs / 1e6, secs));
            }
        }
        return results;
    }
}
