package io.shardvault.s3;

import io.shardvault.common.config.ConfigKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The settings of the S3 endpoint. */
public final class S3ConfigKeys {
    private S3ConfigKeys() {
    }

    public static final ConfigKey<String> BIND_HOST = ConfigKey.ofString("s3.bindHost", "127.0.0.1",
            "Address the S3 endpoint listens on.");
    public static final ConfigKey<Integer> PORT = ConfigKey.ofInt("s3.port", 9000, 0, 65535,
            "TCP port of the S3 endpoint; 0 picks a free one.");
    public static final ConfigKey<String> REGION = ConfigKey.ofString("s3.region", "us-east-1",
            "The region clients sign for and GetBucketLocation reports.");
    public static final ConfigKey<String> BASE_DOMAINS = ConfigKey.ofString("s3.baseDomains", "localhost",
            "Comma-separated domains under which bucket.domain Host headers select virtual-host-style addressing.");
    public static final ConfigKey<Long> MAX_INITIAL_LINE_BYTES = ConfigKey.ofBytes("s3.maxInitialLineBytes",
            16L << 10, 1L << 10, 1L << 20,
            "Longest request line (method, URL, version); a longer one is refused with 414.");
    public static final ConfigKey<Long> MAX_HEADER_BYTES = ConfigKey.ofBytes("s3.maxHeaderBytes", 16L << 10,
            1L << 10, 1L << 20, "Largest total size of a request's headers; larger is refused with 431.");
    public static final ConfigKey<Integer> MAX_HEADER_COUNT = ConfigKey.ofInt("s3.maxHeaderCount", 128, 8, 10_000,
            "Most headers a request may carry; more is refused with 431.");
    public static final ConfigKey<Long> MAX_XML_BYTES = ConfigKey.ofBytes("s3.maxXmlBytes", 2L << 20, 1L << 10,
            64L << 20, "Largest XML request body (DeleteObjects, CompleteMultipartUpload); larger is MalformedXML.");
    public static final ConfigKey<Duration> MAX_CLOCK_SKEW = ConfigKey.ofDuration("s3.maxClockSkew",
            Duration.ofMinutes(15), Duration.ofSeconds(1), Duration.ofHours(24),
            "Largest difference between a request's signing time and the server's clock (RequestTimeTooSkewed).");
    public static final ConfigKey<Duration> MAX_PRESIGNED_EXPIRY = ConfigKey.ofDuration("s3.maxPresignedExpiry",
            Duration.ofDays(7), Duration.ofSeconds(1), Duration.ofDays(7),
            "Longest X-Amz-Expires a presigned URL may declare.");
    public static final ConfigKey<Boolean> SIGV2_ENABLED = ConfigKey.ofBoolean("s3.sigv2.enabled", true,
            "Accept AWS Signature Version 2 (Authorization: AWS, and AWSAccessKeyId/Signature/Expires presigned URLs); "
                    + "when off such requests are answered 400 InvalidRequest.");
    public static final ConfigKey<Integer> IO_THREADS = ConfigKey.ofInt("s3.ioThreads",
            Math.max(2, Runtime.getRuntime().availableProcessors()), 1, 1024,
            "Netty event-loop threads of the S3 endpoint.");
    public static final ConfigKey<Integer> WORKER_THREADS = ConfigKey.ofInt("s3.workerThreads",
            Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), 1, 4096,
            "Threads that run request parsing and store calls, off the event loops.");
    public static final ConfigKey<Integer> MAX_QUEUED_REQUESTS = ConfigKey.ofInt("s3.maxQueuedRequests", 10_000,
            1, 1_000_000, "Requests waiting for a worker thread; beyond this a request is answered SlowDown.");
    public static final ConfigKey<Duration> IDLE_TIMEOUT = ConfigKey.ofDuration("s3.idleTimeout",
            Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofHours(24),
            "A connection with no traffic either way for this long is closed.");
    public static final ConfigKey<Boolean> TLS_ENABLED = ConfigKey.ofBoolean("s3.tls.enabled", false,
            "Serve HTTPS with the PEM certificate chain and private key below.");
    public static final ConfigKey<Path> TLS_CERTIFICATE = ConfigKey.ofPath("s3.tls.certificate",
            Path.of("tls", "s3.crt.pem"), "PEM certificate chain of the S3 endpoint (when TLS is enabled).");
    public static final ConfigKey<Path> TLS_PRIVATE_KEY = ConfigKey.ofPath("s3.tls.privateKey",
            Path.of("tls", "s3.key.pem"), "PEM PKCS#8 private key of the S3 endpoint (when TLS is enabled).");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(BIND_HOST, PORT, REGION, BASE_DOMAINS, MAX_INITIAL_LINE_BYTES, MAX_HEADER_BYTES,
                MAX_HEADER_COUNT, MAX_XML_BYTES, MAX_CLOCK_SKEW, MAX_PRESIGNED_EXPIRY, SIGV2_ENABLED, IO_THREADS, WORKER_THREADS,
                MAX_QUEUED_REQUESTS, IDLE_TIMEOUT, TLS_ENABLED, TLS_CERTIFICATE, TLS_PRIVATE_KEY);
    }
}
