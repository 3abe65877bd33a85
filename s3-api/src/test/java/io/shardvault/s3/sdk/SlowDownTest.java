package io.shardvault.s3.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Credential;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.testing.DelegatingObjectStore;
import io.shardvault.s3.testing.InMemoryObjectStore;
import io.shardvault.s3.testing.MapCredentialStore;
import io.shardvault.s3.testing.S3ServerFixture;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** With every worker busy and the queue full, requests are answered 503 SlowDown at once. */
@Timeout(60)
class SlowDownTest {
    @Test
    void aFullWorkerQueueAnswersSlowDown() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        InMemoryObjectStore memory = new InMemoryObjectStore(1 << 20, Clock.systemUTC());
        // Blocks the worker thread on purpose (a contract violation) to fill the pool.
        DelegatingObjectStore blocking = new DelegatingObjectStore(memory) {
            @Override
            public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.listBuckets(caller);
            }
        };
        S3ServerConfig base = S3ServerConfig.defaults().withBind("127.0.0.1", 0);
        S3ServerConfig config = new S3ServerConfig(base.bindHost(), 0, base.region(), base.baseDomains(),
                base.maxInitialLineBytes(), base.maxHeaderBytes(), base.maxHeaderCount(), base.maxXmlBytes(),
                base.maxClockSkew(), base.maxPresignedExpiry(), 1, 1, 1, base.idleTimeout(), null, null);
        MapCredentialStore credentials = new MapCredentialStore().add(new Credential(S3ServerFixture.ACCESS_KEY,
                S3ServerFixture.SECRET_KEY, true, S3ServerFixture.OWNER));
        try (S3Server server = S3Server.start(config, blocking, credentials, new SimpleMeterRegistry());
             S3Client s3 = S3Client.builder()
                     .endpointOverride(java.net.URI.create("http://127.0.0.1:" + server.localAddress().getPort()))
                     .region(Region.US_EAST_1).forcePathStyle(true)
                     .credentialsProvider(S3ServerFixture.credentials(S3ServerFixture.ACCESS_KEY,
                             S3ServerFixture.SECRET_KEY))
                     .httpClient(UrlConnectionHttpClient.create())
                     .overrideConfiguration(c -> c.retryStrategy(software.amazon.awssdk.retries.DefaultRetryStrategy.doNotRetry())).build()) {
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> s3.listBuckets().buckets().size());
            assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
            // One worker is blocked and the queue holds one request: of three concurrent probes at
            // least two must be refused at once.
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
            List<CompletableFuture<Integer>> probes = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                probes.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        s3.headBucket(b -> b.bucket("any-bucket"));
                        return 200;
                    } catch (S3Exception e) {
                        return e.statusCode();
                    }
                }, pool));
            }
            long refused = 0;
            for (int i = 0; i < 500 && refused < 2; i++) {
                refused = probes.stream().filter(p -> p.isDone() && p.join() == 503).count();
                Thread.sleep(20);
            }
            assertThat(refused).isGreaterThanOrEqualTo(2);
            release.countDown();
            assertThat(first.get(20, TimeUnit.SECONDS)).isZero();
            for (CompletableFuture<Integer> p : probes) {
                assertThat(p.get(20, TimeUnit.SECONDS)).isIn(503, 404);
            }
            pool.shutdown();
        }
    }
}
