package io.shardvault.s3.sosapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.s3.BucketCapacity;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Credential;
import io.shardvault.s3.ListObjectsRequest;
import io.shardvault.s3.ListVersionsRequest;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.VersionSummary;
import io.shardvault.s3.VersionsPage;
import io.shardvault.s3.testing.DelegatingObjectStore;
import io.shardvault.s3.testing.InMemoryObjectStore;
import io.shardvault.s3.testing.MapCredentialStore;
import io.shardvault.s3.testing.S3ServerFixture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * SOSAPI's virtual objects through the AWS SDK, over the in-memory store with a capacity figure: one
 * client sends Veeam's User-Agent (listings show the objects), the other the SDK's own (they do not).
 */
@Timeout(120)
class SosapiTest {
    private static final Logger LOG = LoggerFactory.getLogger(SosapiTest.class);
    private static final long SEED = System.nanoTime();
    private static final String BUCKET = "veeam-bucket";
    /** What Veeam Backup & Replication 12 sends; the SDK appends its own tokens. */
    private static final String VEEAM_AGENT = "APN/1.0 Veeam/1.0 Backup/12.0";

    private static final AtomicLong USED = new AtomicLong(12_345);
    private static DelegatingObjectStore store;
    private static S3Server server;
    private static S3Client s3;
    private static S3Client veeam;

    @BeforeAll
    static void start() throws Exception {
        LOG.info("seed {}", SEED);
        InMemoryObjectStore memory = new InMemoryObjectStore(1L << 30, Clock.systemUTC());
        store = new DelegatingObjectStore(memory) {
            @Override
            public boolean reportsCapacity() {
                return true;
            }

            /** The in-memory store is unversioned: each current object is its key's null version. */
            @Override
            public CompletableFuture<VersionsPage> listObjectVersions(Caller caller, ListVersionsRequest r) {
                return listObjects(caller, new ListObjectsRequest(r.bucket(), r.prefix(), r.delimiter(),
                        r.keyMarker(), r.maxKeys(), false)).thenApply(p -> new VersionsPage(p.objects().stream()
                        .map(o -> new VersionSummary(o.key(), "null", true, false, o.size(), o.etag(),
                                o.lastModified(), null)).toList(), p.commonPrefixes(), p.truncated(),
                        p.nextAfter(), null));
            }

            @Override
            public CompletableFuture<BucketCapacity> bucketCapacity(Caller caller, String bucket) {
                return headBucket(caller, bucket).thenApply(b -> new BucketCapacity(1_000_000, 1_000_000
                        - USED.get(), USED.get()));
            }
        };
        SosapiConfig sosapi = new SosapiConfig(true, SosapiConfig.VEEAM_CLIENTS, "shardvault test", true, true, 4096,
                32, 500, 7);
        server = startServer(sosapi);
        s3 = client(server, S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, null);
        veeam = client(server, S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, VEEAM_AGENT);
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    private static S3Server startServer(SosapiConfig sosapi) throws Exception {
        S3ServerConfig config = S3ServerConfig.defaults().withBind("127.0.0.1", 0).withSosapi(sosapi);
        MapCredentialStore credentials = new MapCredentialStore()
                .add(new Credential(S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, true,
                        S3ServerFixture.OWNER))
                .add(new Credential(S3ServerFixture.OTHER_ACCESS_KEY, S3ServerFixture.OTHER_SECRET_KEY, true,
                        "owner-two"));
        return S3Server.start(config, store, credentials, new SimpleMeterRegistry());
    }

    /** A client of {@code to}; {@code agent}, when given, leads its User-Agent. */
    private static S3Client client(S3Server to, String key, String secret, String agent) {
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + to.localAddress().getPort()))
                .region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(S3ServerFixture.credentials(key, secret))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> {
                    c.apiCallTimeout(Duration.ofSeconds(30));
                    if (agent != null) {
                        c.putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_PREFIX, agent);
                    }
                }).build();
    }

    @AfterAll
    static void stop() {
        for (S3Client c : new S3Client[] {s3, veeam}) {
            if (c != null) {
                c.close();
            }
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void systemXmlDeclaresCapabilitiesAndConfiguredRecommendations() {
        var get = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.SYSTEM_XML));
        String xml = get.asUtf8String();
        assertThat(xml).contains("<SystemInfo>")
                .contains("<ProtocolVersion>&quot;1.0&quot;</ProtocolVersion>")
                .contains("<ModelName>&quot;shardvault test&quot;</ModelName>")
                .contains("<ProtocolCapabilities><CapacityInfo>true</CapacityInfo><UploadSessions>false"
                        + "</UploadSessions><IAMSTS>false</IAMSTS></ProtocolCapabilities>")
                .contains("<S3ConcurrentTaskLimit>32</S3ConcurrentTaskLimit>")
                .contains("<S3MultiObjectDeleteLimit>500</S3MultiObjectDeleteLimit>")
                .contains("<StorageConcurrentTasksLimit>7</StorageConcurrentTasksLimit>")
                .contains("<KbBlockSize>4096</KbBlockSize>");
        assertThat(get.response().contentType()).isEqualTo("application/xml");
        assertThat(get.response().contentLength()).isEqualTo(xml.getBytes(StandardCharsets.UTF_8).length);
        HeadObjectResponse head = s3.headObject(b -> b.bucket(BUCKET).key(SosapiObjects.SYSTEM_XML));
        assertThat(head.eTag()).isEqualTo(get.response().eTag());
        assertThat(head.contentLength()).isEqualTo(get.response().contentLength());
        assertThat(head.lastModified()).isNotNull();
        // A range read answers a slice of the same document.
        String slice = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.SYSTEM_XML).range("bytes=0-4"))
                .asUtf8String();
        assertThat(slice).isEqualTo(xml.substring(0, 5));
    }

    @Test
    void capacityXmlReportsTheStoreFigures() {
        USED.set(4242);
        String xml = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.CAPACITY_XML)).asUtf8String();
        assertThat(xml).contains("<CapacityInfo><Capacity>1000000</Capacity><Available>995758</Available>"
                + "<Used>4242</Used></CapacityInfo>");
        HeadObjectResponse head = s3.headObject(b -> b.bucket(BUCKET).key(SosapiObjects.CAPACITY_XML));
        assertThat(head.contentType()).isEqualTo("application/xml");
    }

    @Test
    void missingBucketAndOtherOwnerAreRefused() {
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("no-such-bucket").key(SosapiObjects.SYSTEM_XML)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        try (S3Client other = client(server, S3ServerFixture.OTHER_ACCESS_KEY, S3ServerFixture.OTHER_SECRET_KEY,
                null)) {
            assertThatThrownBy(() -> other.getObjectAsBytes(b -> b.bucket(BUCKET).key(SosapiObjects.SYSTEM_XML)))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }
    }

    @Test
    void writesAndCopiesOntoVirtualObjectsAreAccessDeniedForEveryClient() {
        s3.putObject(b -> b.bucket(BUCKET).key("plain"), RequestBody.fromString("x"));
        for (S3Client client : List.of(s3, veeam)) {
            for (String key : List.of(SosapiObjects.SYSTEM_XML, SosapiObjects.CAPACITY_XML)) {
                assertDenied(() -> client.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("evil")));
                assertDenied(() -> client.copyObject(b -> b.sourceBucket(BUCKET).sourceKey("plain")
                        .destinationBucket(BUCKET).destinationKey(key)));
                assertDenied(() -> client.createMultipartUpload(b -> b.bucket(BUCKET).key(key)));
            }
        }
    }

    @Test
    void deletesOfVirtualObjectsSucceedAsDeletesOfMissingKeys() {
        String bucket = "delete-bucket";
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("plain"), RequestBody.fromString("x"));
        for (S3Client client : List.of(s3, veeam)) {
            for (String key : List.of(SosapiObjects.SYSTEM_XML, SosapiObjects.CAPACITY_XML)) {
                assertThat(client.deleteObject(b -> b.bucket(bucket).key(key)).sdkHttpResponse().statusCode())
                        .isEqualTo(204);
            }
        }
        DeleteObjectsResponse batch = veeam.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(
                ObjectIdentifier.builder().key(SosapiObjects.SYSTEM_XML).build(),
                ObjectIdentifier.builder().key(SosapiObjects.CAPACITY_XML).versionId("null").build(),
                ObjectIdentifier.builder().key("plain").build()).build()));
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.deleted()).extracting(d -> d.key())
                .containsExactlyInAnyOrder(SosapiObjects.SYSTEM_XML, SosapiObjects.CAPACITY_XML, "plain");
        // Still there for whoever reads them, and listed to Veeam; they hold no bucket.
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(SosapiObjects.SYSTEM_XML)).asUtf8String())
                .contains("<SystemInfo>");
        assertThat(veeam.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::key)
                .containsExactly(SosapiObjects.CAPACITY_XML, SosapiObjects.SYSTEM_XML);
        veeam.deleteBucket(b -> b.bucket(bucket));
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket(bucket)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
    }

    @Test
    void listingsOfOtherClientsLeaveThemOut() {
        String bucket = "plain-listing";
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::key).containsExactly("k");
        assertThat(s3.listObjects(b -> b.bucket(bucket)).contents()).extracting(S3Object::key).containsExactly("k");
        assertThat(s3.listObjects(b -> b.bucket(bucket).delimiter("/")).commonPrefixes()).isEmpty();
        assertThat(s3.listObjectVersions(b -> b.bucket(bucket)).versions()).extracting(v -> v.key())
                .containsExactly("k");
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(SosapiObjects.PREFIX)).contents()).isEmpty();
        // The product token, in any case; not a token that merely ends in it.
        for (String agent : List.of("apn/1.0 VEEAM/1.0 Backup/12.0", "Veeam/1.0")) {
            try (S3Client c = client(server, S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, agent)) {
                assertThat(c.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::key).as(agent)
                        .containsExactly(SosapiObjects.CAPACITY_XML, SosapiObjects.SYSTEM_XML, "k");
            }
        }
        try (S3Client c = client(server, S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, "NotVeeam/1.0")) {
            assertThat(c.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::key)
                    .containsExactly("k");
        }
    }

    /**
     * A key stored under a virtual key while SOSAPI was off: listed to other clients, deleted by a
     * delete of that key, so emptying the bucket by its listing and deleting it works.
     */
    @Test
    void aStoredObjectUnderAVirtualKeyDoesNotHoldItsBucket() throws Exception {
        String bucket = "stored-under-virtual";
        s3.createBucket(b -> b.bucket(bucket));
        S3Server plain = startServer(SosapiConfig.DISABLED);
        try (S3Client before = client(plain, S3ServerFixture.ACCESS_KEY, S3ServerFixture.SECRET_KEY, null)) {
            before.putObject(b -> b.bucket(bucket).key(SosapiObjects.SYSTEM_XML), RequestBody.fromString("old"));
        } finally {
            plain.close();
        }
        List<S3Object> listed = s3.listObjectsV2(b -> b.bucket(bucket)).contents();
        assertThat(listed).extracting(S3Object::key).containsExactly(SosapiObjects.SYSTEM_XML);
        assertThat(listed.get(0).size()).isEqualTo(3);
        // Veeam's listings and reads see the rendered document instead.
        assertThat(veeam.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::size)
                .doesNotContain(3L);
        s3.deleteObject(b -> b.bucket(bucket).key(SosapiObjects.SYSTEM_XML));
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
        s3.deleteBucket(b -> b.bucket(bucket));
    }

    private static void assertDenied(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(S3Exception.class, e -> {
            assertThat(e.statusCode()).isEqualTo(403);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
        });
    }

    @Test
    void veeamListingsShowThemUnderTheirPrefixAndPageThroughThem() {
        String bucket = "listing-bucket";
        s3.createBucket(b -> b.bucket(bucket));
        Random random = new Random(SEED);
        List<String> stored = new ArrayList<>(List.of("!first", ".aaa", ".system-a", ".system-d26a9498-x", "zzz/1"));
        for (int i = 0; i < 5; i++) {
            stored.add(".t" + random.nextInt(1000) + "-" + i);
        }
        for (String key : stored) {
            s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(key));
        }
        List<String> expected = new ArrayList<>(stored);
        expected.add(SosapiObjects.CAPACITY_XML);
        expected.add(SosapiObjects.SYSTEM_XML);
        expected.sort(null);

        // Whole listing with every page size: each key once, in order, virtual ones included.
        for (int pageSize = 1; pageSize <= expected.size() + 1; pageSize++) {
            List<String> seen = new ArrayList<>();
            String token = null;
            int pages = 0;
            do {
                String t = token;
                int size = pageSize;
                ListObjectsV2Response page = veeam.listObjectsV2(b -> b.bucket(bucket).maxKeys(size).continuationToken(t));
                page.contents().forEach(o -> seen.add(o.key()));
                token = page.isTruncated() ? page.nextContinuationToken() : null;
                assertThat(++pages).isLessThan(100);
            } while (token != null);
            assertThat(seen).as("page size %d", pageSize).isEqualTo(expected);

            List<String> versions = new ArrayList<>();
            String keyMarker = null;
            String versionMarker = null;
            pages = 0;
            boolean more;
            do {
                String km = keyMarker;
                String vm = versionMarker;
                int size = pageSize;
                ListObjectVersionsResponse page = veeam.listObjectVersions(b -> b.bucket(bucket).maxKeys(size)
                        .keyMarker(km).versionIdMarker(vm));
                page.versions().forEach(v -> versions.add(v.key()));
                more = page.isTruncated();
                keyMarker = page.nextKeyMarker();
                versionMarker = page.nextVersionIdMarker();
                assertThat(++pages).isLessThan(100);
            } while (more);
            assertThat(versions).as("versions, page size %d", pageSize).isEqualTo(expected);
        }

        // Under their own prefix, and rolled up by a delimiter.
        ListObjectsV2Response prefixed = veeam.listObjectsV2(b -> b.bucket(bucket).prefix(SosapiObjects.PREFIX));
        assertThat(prefixed.contents()).extracting(S3Object::key)
                .containsExactly(SosapiObjects.CAPACITY_XML, SosapiObjects.SYSTEM_XML);
        S3Object system = prefixed.contents().get(1);
        HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(SosapiObjects.SYSTEM_XML));
        assertThat(system.size()).isEqualTo(head.contentLength());
        assertThat(system.eTag()).isEqualTo(head.eTag());
        ListObjectsResponse v1 = veeam.listObjects(b -> b.bucket(bucket).delimiter("/"));
        assertThat(v1.commonPrefixes()).extracting(p -> p.prefix()).containsExactly(SosapiObjects.PREFIX, "zzz/");
        assertThat(v1.contents()).extracting(S3Object::key).doesNotContain(SosapiObjects.SYSTEM_XML);
        // A prefix that does not cover them, and a marker past them.
        assertThat(veeam.listObjectsV2(b -> b.bucket(bucket).prefix("zzz")).contents()).extracting(S3Object::key)
                .containsExactly("zzz/1");
        assertThat(veeam.listObjects(b -> b.bucket(bucket).marker(SosapiObjects.SYSTEM_XML)).contents())
                .extracting(S3Object::key)
                .isEqualTo(expected.subList(expected.indexOf(SosapiObjects.SYSTEM_XML) + 1, expected.size()));
        assertThat(veeam.listObjectVersions(b -> b.bucket(bucket).prefix(SosapiObjects.PREFIX + "sys")).versions())
                .singleElement().satisfies(v -> {
                    assertThat(v.key()).isEqualTo(SosapiObjects.SYSTEM_XML);
                    assertThat(v.versionId()).isEqualTo("null");
                    assertThat(v.isLatest()).isTrue();
                });
    }
}
