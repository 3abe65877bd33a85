package io.shardvault.s3.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.s3.BucketInfo;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Credential;
import io.shardvault.s3.PutObjectRequest;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.WriteResult;
import io.shardvault.s3.testing.DelegatingObjectStore;
import io.shardvault.s3.testing.InMemoryObjectStore;
import io.shardvault.s3.testing.MapCredentialStore;
import io.shardvault.s3.testing.S3ServerFixture;
import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The log context of S3 requests: while the object store is called, the worker thread's MDC holds
 * the request id the client sees, the bucket and the key; after the request it is empty again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestLoggingTest {

    @Test
    void storeCallsRunWithRequestIdBucketAndKeyInTheMdc() throws Exception {
        List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
        InMemoryObjectStore memory = new InMemoryObjectStore(1L << 20, Clock.systemUTC());
        DelegatingObjectStore store = new DelegatingObjectStore(memory) {
            @Override
            public CompletableFuture<WriteResult> putObject(Caller caller, PutObjectRequest request) {
                seen.add(copyOfMdc());
                return super.putObject(caller, request);
            }

            @Override
            public CompletableFuture<List<BucketInfo>> listBuckets(Caller caller) {
                seen.add(copyOfMdc());
                return super.listBuckets(caller);
            }

            @Override
            public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key, String versionId) {
                seen.add(copyOfMdc());
                return super.getObject(caller, bucket, key, versionId);
            }
        };
        MapCredentialStore credentials = new MapCredentialStore().add(new Credential(S3ServerFixture.ACCESS_KEY,
                S3ServerFixture.SECRET_KEY, true, S3ServerFixture.OWNER));
        S3ServerConfig config = S3ServerConfig.defaults().withBind("127.0.0.1", 0);
        try (S3Server server = S3Server.start(config, store, credentials, new SimpleMeterRegistry());
             S3Client s3 = S3Client.builder()
                     .endpointOverride(URI.create("http://127.0.0.1:" + server.localAddress().getPort()))
                     .region(Region.US_EAST_1).forcePathStyle(true)
                     .credentialsProvider(S3ServerFixture.credentials(S3ServerFixture.ACCESS_KEY,
                             S3ServerFixture.SECRET_KEY))
                     .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            s3.createBucket(b -> b.bucket("logs"));
            String putId = s3.putObject(p -> p.bucket("logs").key("a/b.txt"), RequestBody.fromString("hello"))
                    .responseMetadata().requestId();
            assertThatThrownBy(() -> s3.getObject(g -> g.bucket("logs").key("missing")))
                    .isInstanceOf(NoSuchKeyException.class);
            // A request without bucket or key, on workers that ran the two above: nothing left over.
            s3.listBuckets();

            assertThat(seen).hasSize(3);
            assertThat(seen.get(0)).containsEntry("requestId", putId).containsEntry("bucket", "logs")
                    .containsEntry("key", "a/b.txt");
            assertThat(seen.get(1)).containsEntry("bucket", "logs").containsEntry("key", "missing")
                    .containsKey("requestId");
            assertThat(seen.get(1).get("requestId")).isNotEqualTo(putId);
            assertThat(seen.get(2)).containsKey("requestId").doesNotContainKeys("bucket", "key");
        }
    }

    private static Map<String, String> copyOfMdc() {
        Map<String, String> m = MDC.getCopyOfContextMap();
        return m == null ? Map.of() : new HashMap<>(m);
    }
}
