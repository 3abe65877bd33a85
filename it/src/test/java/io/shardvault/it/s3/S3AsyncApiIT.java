package io.shardvault.it.s3;

import io.shardvault.s3.testing.S3Target;
import io.shardvault.s3.testing.SdkAsyncSuite;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * s3-api's {@link SdkAsyncSuite} against a real cluster ({@link S3Cluster}), over plain HTTP and over HTTPS (the
 * coordinator configured with a PEM certificate and key, as issue #8 asks): the async client, and the sync
 * client over HTTPS.
 */
@Timeout(300)
class S3AsyncApiIT extends SdkAsyncSuite {
    @TempDir
    Path dir;

    @Override
    protected S3Target startTarget(boolean tls) throws Exception {
        return S3Cluster.start(Files.createTempDirectory(dir, tls ? "tls" : "plain"), S3Cluster.ACCESS_KEY,
                S3Cluster.SECRET_KEY, 0, tls);
    }
}
