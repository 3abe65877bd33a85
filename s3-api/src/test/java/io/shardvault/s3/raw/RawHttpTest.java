package io.shardvault.s3.raw;

import io.shardvault.s3.testing.S3ServerFixture;
import io.shardvault.s3.testing.S3Target;
import org.junit.jupiter.api.Timeout;

/** {@link RawHttpSuite} against the S3 server over the in-memory store. */
@Timeout(120)
class RawHttpTest extends RawHttpSuite {
    @Override
    protected S3Target startTarget() throws Exception {
        return S3ServerFixture.start();
    }
}
