package io.shardvault.s3.sdk;

import io.shardvault.s3.testing.S3ServerFixture;
import io.shardvault.s3.testing.S3Target;
import io.shardvault.s3.testing.SdkAsyncSuite;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Timeout;

/** {@link SdkAsyncSuite} against the S3 server over the in-memory store. */
@Timeout(120)
class SdkAsyncClientTest extends SdkAsyncSuite {
    @Override
    protected S3Target startTarget(boolean tls) throws Exception {
        return S3ServerFixture.start(tls, UnaryOperator.identity());
    }
}
