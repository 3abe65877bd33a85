package io.shardvault.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options shared by every scenario (a picocli mixin): the endpoint, credentials and output. */
public final class BenchOptions {
    @Option(names = "--endpoint", defaultValue = "http://127.0.0.1:9000", description = "S3 endpoint URL (default: ${DEFAULT-VALUE})")
    String endpoint;

    @Option(names = "--access-key", defaultValue = "${env:SHARDVAULT_ACCESS_KEY:-shardvault-dev}", description = "Access key (default: $SHARDVAULT_ACCESS_KEY or shardvault-dev)")
    String accessKey;

    @Option(names = "--secret-key", defaultValue = "${env:SHARDVAULT_SECRET_KEY:-shardvault-dev-secret}", description = "Secret key (default: $SHARDVAULT_SECRET_KEY or the dev secret)")
    String secretKey;

    @Option(names = "--region", defaultValue = "us-east-1", description = "Signing region (default: ${DEFAULT-VALUE})")
    String region;

    @Option(names = "--bucket", defaultValue = "shardvault-bench", description = "Bucket, created if missing (default: ${DEFAULT-VALUE})")
    String bucket;

    @Option(names = "--prefix", defaultValue = "bench", description = "Key prefix (default: ${DEFAULT-VALUE})")
    String prefix;

    @Option(names = "--run-id", paramLabel = "ID", description = "Key directory under --prefix; give the same ID to "
            + "invocations that share objects (default: a fresh one per invocation)")
    String runId;

    @Option(names = "--seed", defaultValue = "11", description = "Payload seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--label", defaultValue = "run", description = "Configuration label for tables and charts (default: ${DEFAULT-VALUE})")
    String label;

    @Option(names = "--json", description = "Print results as JSON on stdout instead of a table")
    boolean json;

    @Option(names = "--plot", paramLabel = "DIR", description = "Write PNG charts into DIR")
    Path plotDir;

    @Option(names = "--out", paramLabel = "FILE", description = "Append results to a TSV file (input of `bench combine`)")
    Path outFile;

    @Option(names = "--no-progress", description = "Do not draw a progress bar")
    boolean noProgress;

    boolean progress() {
        return !noProgress && !json;
    }
}
