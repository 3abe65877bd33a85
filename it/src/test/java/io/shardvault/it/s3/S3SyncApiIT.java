package io.shardvault.it.s3;

import io.shardvault.s3.testing.S3Target;
import io.shardvault.s3.testing.SdkSyncSuite;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * s3-api's {@link SdkSyncSuite} (every operation of issue #8 through the sync client, default checksums) against
 * a real cluster ({@link S3Cluster}: 20 pods, 2 stash servers, a coordinator with its catalog).
 */
@Timeout(300)
class S3SyncApiIT extends SdkSyncSuite {
    /** Static: the suite starts its target in a per-class @BeforeAll, before instance fields are injected. */
    @TempDir
    static Path dir;

    @Override
    protected S3Target startTarget() throws Exception {
        return S3Cluster.start(dir);
    }
}
