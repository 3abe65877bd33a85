package io.shardvault.s3.testing;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * An S3 endpoint the shared suites ({@link SdkSyncSuite}, {@link SdkAsyncSuite},
 * {@code io.shardvault.s3.raw.RawHttpSuite}) run against: s3-api's {@link S3ServerFixture} over the in-memory
 * store, or it/'s real cluster. Clients it creates are path-style, in the server's region (us-east-1 unless the
 * target set another), with the SDK's default checksum
 * behaviour, trusting the endpoint's certificate when it serves TLS; the caller closes them.
 *
 * <p>Not thread-safe: start and close it from the test thread.
 */
public interface S3Target extends AutoCloseable {

    /** {@code http://127.0.0.1:port} or {@code https://...}. */
    URI endpoint();

    default int port() {
        return endpoint().getPort();
    }

    /** The key every suite works with. */
    String accessKey();

    String secretKey();

    /** The owner id listings show for {@link #accessKey()}'s objects (fetch-owner). */
    String owner();

    /** A client with {@link #accessKey()}. */
    default S3Client syncClient() {
        return syncClient(accessKey(), secretKey());
    }

    S3Client syncClient(String key, String secret);

    S3AsyncClient asyncClient();

    S3Presigner presigner();

    /** The server's meters (s3.requests, s3.payloads, ...). */
    MeterRegistry registry();

    /** An enabled key of another owner, as {key, secret}, when the target has one. */
    Optional<String[]> otherOwnerKey();

    /** A disabled key and its secret, when the target has one. */
    Optional<String[]> disabledKey();

    /** Fails when the store still holds resources a finished request should have released. */
    default void assertNothingOpen() {
    }

    @Override
    void close();
}
