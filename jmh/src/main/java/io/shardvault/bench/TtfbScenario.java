package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * GETs by size: uploads {@code objects} objects, then {@code clients} threads, each on its own connection,
 * make {@code count} GETs between them (GET i reads object i mod objects), timing the first byte (row
 * {@code TTFB}) and the whole body (row {@code GET}, whose objects/s and MB/s are over the step's wall time).
 * With the defaults (one object, one client) that is the single-stream TTFB and throughput. {@code --only}
 * splits the upload from the reads (two invocations sharing a {@code --run-id}), so that what the server does
 * during the reads alone can be measured from outside.
 */
@Command(name = "ttfb", mixinStandardHelpOptions = true,
        description = "GET time-to-first-byte percentiles and throughput by size, single-stream or concurrent")
public final class TtfbScenario implements Scenario {
    /** The part of the scenario to run alone. */
    enum Only {
        UPLOAD, READ
    }

    @Mixin
    BenchOptions options;

    @Option(names = "--sizes", split = ",",
            defaultValue = "16KiB,64KiB,256KiB,1MiB,4MiB,16MiB,32MiB", description = "Object sizes (default: ${DEFAULT-VALUE})")
    List<String> sizes;

    @Option(names = "--count", defaultValue = "50", description = "Timed GETs per size (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--warmup", defaultValue = "1", description = "Uncounted GETs per size first (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--objects", defaultValue = "1", description = "Objects per size; GET i reads object i mod N (default: ${DEFAULT-VALUE})")
    int objects;

    @Option(names = "--clients", defaultValue = "1", description = "Threads, each on its own connection (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--only", paramLabel = "upload|read", description = "Only upload the objects, or only read the "
            + "objects an earlier `--only upload` wrote with the same --run-id and --objects")
    Only only;

    @Override
    public BenchOptions options() {
        return options;
    }

    @Override
    public List<Result> call() throws Exception {
        List<Result> results = new ArrayList<>();
        ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[64 * 1024]);
        try (S3Target target = new S3Target(options, clients)) {
            target.ensureBucket();
            for (String s : sizes) {
                long size = Sizes.parse(s);
                String scope = "ttfb-" + size;
                if (only != Only.READ) {
                    byte[] body = S3Target.payload(size, options.seed);
                    try (ProgressBar bar = new ProgressBar(System.err, "ttfb PUT " + Sizes.format(size), objects,
                            options.progress())) {
                        ConcurrentRunner.run(clients, objects, bar, i -> target.put(target.key(scope, i), body));
                    }
                }
                if (only == Only.UPLOAD) {
                    continue;
                }
                for (int i = 0; i < warmup; i++) {
                    target.get(target.key(scope, i % objects), scratch.get());
                }
                long[] first = new long[count];
                ConcurrentRunner.Timings t;
                try (ProgressBar bar = new ProgressBar(System.err, "ttfb GET " + Sizes.format(size) + " x" + clients,
                        count, options.progress())) {
                    t = ConcurrentRunner.run(clients, count, bar,
                            i -> first[(int) i] = target.get(target.key(scope, i % objects), scratch.get())[0]);
                }
                results.add(new Result(options.label, "ttfb", "TTFB", size, clients, LatencyStats.of(first), 0, 0, 0));
                results.add(ConcurrentRunner.result(options, "ttfb", "GET", size, clients, t));
            }
        }
        return results;
    }
}
