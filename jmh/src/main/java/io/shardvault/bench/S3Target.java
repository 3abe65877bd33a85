package io.shardvault.bench;

import java.net.URI;
import java.time.Duration;
import java.util.SplittableRandom;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The endpoint under test: one AWS SDK v2 {@link S3Client} over the JDK's HTTP client, whose keep-alive cache
 * reuses connections (one per concurrent client; the latency scenario uses a single thread, so a single
 * persistent connection, as the original method did), plus seeded random payloads. Thread-safe; close it when
 * done. The Apache client is not used because its httpclient/httpcore versions do not converge.
 */
final class S3Target implements AutoCloseable {
    private final S3Client client;
    private final String bucket;
    private final String prefix;

    S3Target(BenchOptions options, int connections) {
        // The JDK keeps at most http.maxConnections idle connections per destination (default 5), read once.
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", Integer.toString(Math.max(5, connections)));
        }
        this.bucket = options.bucket;
        this.prefix = options.prefix + "/"
                + (options.runId != null ? options.runId : Long.toHexString(System.nanoTime())) + "/";
        this.client = S3Client.builder()
                .endpointOverride(URI.create(options.endpoint))
                .region(Region.of(options.region))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(options.accessKey, options.secretKey)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofMinutes(5)).connectionTimeout(Duration.ofSeconds(10)).build())
                .build();
    }

    S3Client client() {
        return client;
    }

    String bucket() {
        return bucket;
    }

    String key(String scenario, long n) {
        return keyPrefix(scenario) + n;
    }

    /** The prefix of every {@link #key} of {@code scenario}: what a listing of its objects asks for. */
    String keyPrefix(String scenario) {
        return prefix + scenario + "/";
    }

    void head(String key) {
        client.headObject(b -> b.bucket(bucket).key(key));
    }

    void delete(String key) {
        client.deleteObject(b -> b.bucket(bucket).key(key));
    }

    /** Lists one page of up to {@code maxKeys} keys under {@code prefix}; returns how many it listed. */
    int listPage(String prefix, int maxKeys) {
        return client.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).maxKeys(maxKeys)).keyCount();
    }

    /** Creates the bucket unless it exists already. */
    void ensureBucket() {
        try {
            client.headBucket(b -> b.bucket(bucket));
        } catch (NoSuchBucketException e) {
            client.createBucket(b -> b.bucket(bucket));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw e;
            }
            client.createBucket(b -> b.bucket(bucket));
        }
    }

    void put(String key, byte[] body) {
        client.putObject(b -> b.bucket(bucket).key(key).contentLength((long) body.length),
                RequestBody.fromBytes(body));
    }

    /** GETs a whole object; returns {nanos to first byte, nanos to last byte}. */
    long[] get(String key, byte[] scratch) throws java.io.IOException {
        long start = System.nanoTime();
        long first = -1;
        long total = 0;
        try (ResponseInputStream<GetObjectResponse> in = client.getObject(b -> b.bucket(bucket).key(key))) {
            int n;
            while ((n = in.read(scratch)) >= 0) {
                if (first < 0 && n > 0) {
                    first = System.nanoTime() - start;
                }
                total += n;
            }
        }
        if (total == 0) {
            first = System.nanoTime() - start;
        }
        return new long[] {first, System.nanoTime() - start};
    }

    static byte[] payload(long size, long seed) {
        byte[] data = new byte[Math.toIntExact(size)];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < data.length; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < data.length; j++) {
                data[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return data;
    }

    @Override
    public void close() {
        client.close();
    }
}
