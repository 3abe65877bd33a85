package io.shardvault.it.s3;

import io.shardvault.s3.raw.RawHttpSuite;
import io.shardvault.s3.testing.S3Target;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * s3-api's {@link RawHttpSuite} (issue #8's bad inputs over raw sockets: each gets a 4xx S3 XML error and the
 * server keeps serving) against a real cluster ({@link S3Cluster}).
 */
@Timeout(300)
class S3RawHttpIT extends RawHttpSuite {
    /** Static: the suite starts its target in a per-class @BeforeAll, before instance fields are injected. */
    @TempDir
    static Path dir;

    @Override
    protected S3Target startTarget() throws Exception {
        return S3Cluster.start(dir);
    }
}
