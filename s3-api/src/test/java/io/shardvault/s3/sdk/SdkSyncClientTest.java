package io.shardvault.s3.sdk;

import io.shardvault.s3.testing.S3ServerFixture;
import io.shardvault.s3.testing.S3Target;
import io.shardvault.s3.testing.SdkSyncSuite;
import org.junit.jupiter.api.Timeout;

/** {@link SdkSyncSuite} against the S3 server over the in-memory store. */
@Timeout(120)
class SdkSyncClientTest extends SdkSyncSuite {
    @Override
    protected S3Target startTarget() throws Exception {
        return S3ServerFixture.start();
    }
}
