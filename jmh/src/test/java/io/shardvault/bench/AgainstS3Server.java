package io.shardvault.bench;

import io.shardvault.s3.testing.S3ServerFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests that run the bench tool against a real S3 server (s3-api over its in-memory store, on loopback), one
 * per test class, writing results into {@code dir/results.tsv}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class AgainstS3Server {
    static final String BUCKET = "bench-test";

    static S3ServerFixture server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3ServerFixture.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    /** A bench command line for {@code scenario} against the server, then {@code extra}. */
    String[] args(String scenario, String label, String... extra) {
        List<String> args = new ArrayList<>(List.of(scenario, "--endpoint", server.endpoint().toString(),
                "--access-key", S3ServerFixture.ACCESS_KEY, "--secret-key", S3ServerFixture.SECRET_KEY,
                "--bucket", BUCKET, "--label", label, "--no-progress", "--out",
                dir.resolve("results.tsv").toString()));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }
}
