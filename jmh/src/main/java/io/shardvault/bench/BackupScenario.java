package io.shardvault.bench;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/**
 * A Veeam-like job: {@code writers} threads write {@code --total} bytes as objects of {@code --block} bytes,
 * then the job is deleted with DeleteObjects in batches of {@code --batch} keys. Reports the total time of
 * each phase (row {@code PUT} and row {@code DELETE}; the DELETE row's latencies are per batch).
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = "Write N GiB in fixed blocks with 8 writers, then delete it in batches of 1,000")
public final class BackupScenario implements Scenario {
    @Mixin
    BenchOptions options;

    @Option(names = "--total", defaultValue = "1GiB", description = "Bytes to write (default: ${DEFAULT-VALUE})")
    String total;

    @Option(names = "--block", defaultValue = "256KiB", description = "Block (object) size: 256KiB or 1MiB (default: ${DEFAULT-VALUE})")
    String block;

    @Option(names = "--writers", defaultValue = "8", description = "Concurrent writers (default: ${DEFAULT-VALUE})")
    int writers;

    @Option(names = "--batch", defaultValue = "1000", description = "Keys per DeleteObjects call (default: ${DEFAULT-VALUE})")
    int batch;

    @Override
    public BenchOptions options() {
        return options;
    }

    @Override
    public List<Result> call() throws Exception {
        long size = Sizes.parse(block);
        long blocks = Math.max(1, Sizes.parse(total) / size);
        byte[] body = S3Target.payload(size, options.seed);
        List<Result> results = new ArrayList<>();
        try (S3Target target = new S3Target(options, writers)) {
            target.ensureBucket();
            ConcurrentRunner.Timings write;
            try (ProgressBar bar = new ProgressBar(System.err, "backup write", blocks, options.progress())) {
                write = ConcurrentRunner.run(writers, blocks, bar, i -> target.put(target.key("backup", i), body));
            }
            results.add(ConcurrentRunner.result(options, "backup", "PUT", size, writers, write));
            long batches = (blocks + batch - 1) / batch;
            try (ProgressBar bar = new ProgressBar(System.err, "backup delete", batches, options.progress())) {
                ConcurrentRunner.Timings delete = ConcurrentRunner.run(1, batches, bar, b -> {
                    List<ObjectIdentifier> keys = new ArrayList<>();
                    for (long i = b * batch; i < Math.min(blocks, (b + 1) * batch); i++) {
                        keys.add(ObjectIdentifier.builder().key(target.key("backup", i)).build());
                    }
                    DeleteObjectsResponse r = target.client().deleteObjects(d -> d.bucket(target.bucket())
                            .delete(Delete.builder().objects(keys).quiet(true).build()));
                    if (!r.errors().isEmpty()) {
                        throw new IllegalStateException("DeleteObjects failed for " + r.errors().size()
                                + " keys, first: " + r.errors().get(0));
                    }
                });
                double secs = delete.wallNanos() / 1e9;
                results.add(new Result(options.label, "backup", "DELETE", size, 1, delete.latency(),
                        blocks / secs, 0, secs));
            }
        }
        return results;
    }
}
