package io.shardvault.s3.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.s3.sosapi.SosapiObjects;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListBucketsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.Type;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Every operation of issue #8 through the AWS SDK's sync client, with its default checksum behaviour, against
 * an {@link S3Target}: s3-api's {@code SdkSyncClientTest} runs it on the in-memory store, it/'s
 * {@code S3SyncApiIT} on a real cluster. Reads are compared bit for bit with what was written. One target per
 * class (buckets are named per test); the seed of the random data is logged.
 */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SdkSyncSuite {
    private static final Logger LOG = LoggerFactory.getLogger(SdkSyncSuite.class);
    private static final long SEED = System.nanoTime();

    protected S3Target fixture;
    protected S3Client s3;
    private final Random random = new Random(SEED);

    /** Starts the endpoint the suite runs against (once per class). */
    protected abstract S3Target startTarget() throws Exception;

    @BeforeAll
    void start() throws Exception {
        LOG.info("seed {}", SEED);
        fixture = startTarget();
        s3 = fixture.syncClient();
    }

    @AfterAll
    void stop() {
        if (fixture == null) {
            return;
        }
        fixture.registry().find("shardvault.s3.payloads").counters()
                .forEach(c -> LOG.info("payloads {} {}", c.getId().getTag("type"), c.count()));
        if (s3 != null) {
            s3.close();
        }
        fixture.close();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static String md5(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }

    protected void bucket(String name) {
        s3.createBucket(b -> b.bucket(name));
    }

    @Test
    void bucketsAreCreatedListedFoundAndDeleted() {
        bucket("alpha-bucket");
        // In us-east-1 S3 answers 200 to its owner creating it again (BucketAlreadyOwnedByYou elsewhere).
        assertThat(s3.createBucket(b -> b.bucket("alpha-bucket")).sdkHttpResponse().statusCode()).isEqualTo(200);
        fixture.otherOwnerKey().ifPresent(key -> {
            try (S3Client other = fixture.syncClient(key[0], key[1])) {
                assertThatThrownBy(() -> other.createBucket(b -> b.bucket("alpha-bucket")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> {
                            assertThat(e.statusCode()).isEqualTo(409);
                            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketAlreadyExists");
                        });
                assertThat(other.listBuckets().buckets()).extracting(b -> b.name()).doesNotContain("alpha-bucket");
            }
        });
        assertThat(s3.listBuckets().buckets()).extracting(b -> b.name()).contains("alpha-bucket");
        s3.headBucket(b -> b.bucket("alpha-bucket"));
        assertThat(s3.getBucketLocation(b -> b.bucket("alpha-bucket")).locationConstraintAsString()).isEmpty();
        assertThat(s3.getBucketVersioning(b -> b.bucket("alpha-bucket")).status()).isNull();
        s3.putObject(b -> b.bucket("alpha-bucket").key("k"), RequestBody.fromString("x"));
        assertThatThrownBy(() -> s3.deleteBucket(b -> b.bucket("alpha-bucket")))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketNotEmpty"));
        s3.deleteObject(b -> b.bucket("alpha-bucket").key("k"));
        s3.deleteBucket(b -> b.bucket("alpha-bucket"));
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket("alpha-bucket")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        assertThatThrownBy(() -> s3.listObjectsV2(b -> b.bucket("alpha-bucket")))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void nonAsciiMetadataIsAcceptedAndAnsweredAsS3Does() {
        // The sync client's HttpURLConnection sends the value's UTF-8 bytes, which its signer hashed. S3 answers
        // non-ASCII metadata as RFC 2047 words (header bytes are Latin-1); the SDK hands them over undecoded.
        bucket("unicode");
        String value = "na\u00efve \u2603";
        s3.putObject(b -> b.bucket("unicode").key("k").metadata(Map.of("m", value)), RequestBody.fromString("x"));
        for (Map<String, String> metadata : List.of(s3.headObject(b -> b.bucket("unicode").key("k")).metadata(),
                s3.getObjectAsBytes(b -> b.bucket("unicode").key("k")).response().metadata())) {
            String answered = metadata.get("m");
            assertThat(answered).startsWith("=?UTF-8?B?").endsWith("?=");
            assertThat(new String(java.util.Base64.getDecoder().decode(answered.substring(10, answered.length() - 2)),
                    StandardCharsets.UTF_8)).isEqualTo(value);
        }
    }

    @Test
    void listBucketsPagesByMaxBucketsWithPrefixAndRegionFilters() {
        for (String name : List.of("lb-b1", "lb-a3", "lb-a1", "lb-a2")) {
            bucket(name);
        }
        String region = s3.headBucket(b -> b.bucket("lb-a1")).bucketRegion();
        ListBucketsResponse first = s3.listBuckets(b -> b.prefix("lb-a").maxBuckets(2));
        assertThat(first.buckets()).extracting(b -> b.name()).containsExactly("lb-a1", "lb-a2");
        assertThat(first.prefix()).isEqualTo("lb-a");
        assertThat(first.continuationToken()).isNotBlank();
        ListBucketsResponse second = s3.listBuckets(b -> b.prefix("lb-a").maxBuckets(2)
                .continuationToken(first.continuationToken()));
        assertThat(second.buckets()).extracting(b -> b.name()).containsExactly("lb-a3");
        assertThat(second.continuationToken()).isNull();
        List<String> paged = new ArrayList<>();
        s3.listBucketsPaginator(b -> b.prefix("lb-").maxBuckets(1)).buckets().forEach(b -> paged.add(b.name()));
        assertThat(paged).containsExactly("lb-a1", "lb-a2", "lb-a3", "lb-b1");
        assertThat(s3.listBuckets(b -> b.prefix("lb-").bucketRegion(region)).buckets()).hasSize(4);
        assertThat(s3.listBuckets(b -> b.prefix("lb-").bucketRegion("xx-nowhere-1")).buckets()).isEmpty();
        ListBucketsResponse all = s3.listBuckets();
        assertThat(all.continuationToken()).isNull();
        assertThat(all.prefix()).isNull();
        assertThat(all.buckets()).extracting(b -> b.name()).contains("lb-a1", "lb-b1");
        for (int bad : new int[] {0, 10_001}) {
            assertThatThrownBy(() -> s3.listBuckets(b -> b.maxBuckets(bad)))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
                    });
        }
        for (String name : List.of("lb-a1", "lb-a2", "lb-a3", "lb-b1")) {
            s3.deleteBucket(b -> b.bucket(name));
        }
    }

    @Test
    void putGetHeadDeleteWithMetadataAndDefaultChecksum() throws Exception {
        bucket("objects");
        byte[] data = bytes(300_000);
        var put = s3.putObject(b -> b.bucket("objects").key("dir/a b+c%.bin").contentType("application/x-test")
                .cacheControl("max-age=60").contentDisposition("attachment; filename=\"a.bin\"")
                .contentEncoding("identity").metadata(Map.of("color", "blue", "Shape", "round")),
                RequestBody.fromBytes(data));
        assertThat(put.eTag()).isEqualTo("\"" + md5(data) + "\"");
        assertThat(put.checksumCRC32()).isNotNull();
        // Over plain HTTP the sync client signs every chunk and the trailer.
        assertThat(fixture.registry().counter("shardvault.s3.payloads", "type", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER")
                .count()).isPositive();

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket("objects").key("dir/a b+c%.bin")
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(got.asByteArray()).isEqualTo(data);
        GetObjectResponse r = got.response();
        assertThat(r.eTag()).isEqualTo(put.eTag());
        assertThat(r.contentType()).isEqualTo("application/x-test");
        assertThat(r.cacheControl()).isEqualTo("max-age=60");
        assertThat(r.contentDisposition()).isEqualTo("attachment; filename=\"a.bin\"");
        assertThat(r.contentEncoding()).isEqualTo("identity");
        assertThat(r.metadata()).containsEntry("color", "blue").containsEntry("shape", "round");
        assertThat(r.checksumCRC32()).isEqualTo(put.checksumCRC32());

        HeadObjectResponse head = s3.headObject(b -> b.bucket("objects").key("dir/a b+c%.bin")
                .checksumMode(ChecksumMode.ENABLED));
        assertThat(head.contentLength()).isEqualTo(data.length);
        assertThat(head.checksumCRC32()).isEqualTo(put.checksumCRC32());

        s3.deleteObject(b -> b.bucket("objects").key("dir/a b+c%.bin"));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("objects").key("dir/a b+c%.bin")))
                .isInstanceOf(NoSuchKeyException.class);
        // Deleting what is not there succeeds, as in S3.
        s3.deleteObject(b -> b.bucket("objects").key("never-was"));
    }

    @Test
    void unusualKeysRoundTripThroughPathsListingsAndDeleteObjects() {
        bucket("odd-keys");
        List<String> keys = List.of("ünï/cödé ☃.txt", "a//b", "trailing/", "/leading", "sp ace", "q?x=1&y",
                "hash#frag", "percent%41", "plus+sign", "tilde~", "star*paren(1)", "emoji 😀", "colon:semi;",
                "<xml>&amp;\"'");
        for (String k : keys) {
            s3.putObject(b -> b.bucket("odd-keys").key(k), RequestBody.fromString(k));
            assertThat(s3.getObjectAsBytes(b -> b.bucket("odd-keys").key(k)).asUtf8String()).as(k).isEqualTo(k);
        }
        assertThat(s3.listObjectsV2(b -> b.bucket("odd-keys")).contents()).extracting(S3Object::key)
                .containsExactlyInAnyOrderElementsOf(keys);
        assertThat(s3.listObjectsV2(b -> b.bucket("odd-keys").encodingType(EncodingType.URL)).contents())
                .extracting(S3Object::key).containsExactlyInAnyOrderElementsOf(keys);
        DeleteObjectsResponse deleted = s3.deleteObjects(b -> b.bucket("odd-keys").delete(d -> d.objects(
                keys.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList())));
        assertThat(deleted.deleted()).hasSize(keys.size());
        assertThat(s3.listObjectsV2(b -> b.bucket("odd-keys")).contents()).isEmpty();
    }

    @Test
    void everyChecksumAlgorithmIsVerifiedStoredAndReturned() {
        bucket("checksums");
        byte[] data = bytes(70_000);
        // CRC64NVME needs the AWS CRT in the SDK; RawHttpTest checks it against its catalogue check value instead.
        for (ChecksumAlgorithm alg : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C,
                ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256)) {
            String key = "obj-" + alg;
            var put = s3.putObject(b -> b.bucket("checksums").key(key).checksumAlgorithm(alg),
                    RequestBody.fromBytes(data));
            var got = s3.getObjectAsBytes(b -> b.bucket("checksums").key(key).checksumMode(ChecksumMode.ENABLED));
            assertThat(got.asByteArray()).isEqualTo(data);
            String expected = switch (alg) {
                case CRC32 -> put.checksumCRC32();
                case CRC32_C -> put.checksumCRC32C();
                case CRC64_NVME -> put.checksumCRC64NVME();
                case SHA1 -> put.checksumSHA1();
                default -> put.checksumSHA256();
            };
            String returned = switch (alg) {
                case CRC32 -> got.response().checksumCRC32();
                case CRC32_C -> got.response().checksumCRC32C();
                case CRC64_NVME -> got.response().checksumCRC64NVME();
                case SHA1 -> got.response().checksumSHA1();
                default -> got.response().checksumSHA256();
            };
            assertThat(expected).as("%s on PUT", alg).isNotNull();
            assertThat(returned).as("%s on GET", alg).isEqualTo(expected);
        }
    }

    @Test
    void rangesConditionsAndResponseOverrides() throws Exception {
        bucket("ranges");
        byte[] data = bytes(10_000);
        var put = s3.putObject(b -> b.bucket("ranges").key("r"), RequestBody.fromBytes(data));
        var part = s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").range("bytes=100-199"));
        assertThat(part.asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(data, 100, 200));
        assertThat(part.response().contentRange()).isEqualTo("bytes 100-199/10000");
        var suffix = s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").range("bytes=-10"));
        assertThat(suffix.asByteArray()).isEqualTo(java.util.Arrays.copyOfRange(data, 9990, 10000));
        var open = s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").range("bytes=9000-"));
        assertThat(open.asByteArray()).hasSize(1000);
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").range("bytes=20000-")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(416);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidRange");
                });

        assertThat(s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifMatch(put.eTag())).asByteArray())
                .isEqualTo(data);
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifMatch("\"nope\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifNoneMatch(put.eTag())))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(304));
        Instant future = Instant.now().plus(Duration.ofDays(1));
        Instant past = Instant.now().minus(Duration.ofDays(1));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifModifiedSince(future)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(304));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifModifiedSince(past)).asByteArray())
                .hasSize(10_000);
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").ifUnmodifiedSince(past)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));

        var overridden = s3.getObjectAsBytes(b -> b.bucket("ranges").key("r").responseContentType("text/plain")
                .responseCacheControl("no-cache").responseContentDisposition("inline")
                .responseContentLanguage("fr").responseContentEncoding("gzip").responseExpires(future));
        assertThat(overridden.response().contentType()).isEqualTo("text/plain");
        assertThat(overridden.response().cacheControl()).isEqualTo("no-cache");
        assertThat(overridden.response().contentDisposition()).isEqualTo("inline");
        assertThat(overridden.response().contentLanguage()).isEqualTo("fr");
        assertThat(overridden.response().contentEncoding()).isEqualTo("gzip");
    }

    @Test
    void conditionalPuts() {
        bucket("conditional");
        var first = s3.putObject(b -> b.bucket("conditional").key("c").ifNoneMatch("*"), RequestBody.fromString("1"));
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("conditional").key("c").ifNoneMatch("*"),
                RequestBody.fromString("2"))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.statusCode()).isEqualTo(412));
        assertThatThrownBy(() -> s3.putObject(b -> b.bucket("conditional").key("c").ifMatch("\"0000\""),
                RequestBody.fromString("3"))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.statusCode()).isEqualTo(412));
        s3.putObject(b -> b.bucket("conditional").key("c").ifMatch(first.eTag()), RequestBody.fromString("4"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("conditional").key("c")).asUtf8String()).isEqualTo("4");
    }

    @Test
    void listingsPageWithPrefixDelimiterAndEncoding() {
        bucket("listing");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            keys.add(String.format("logs/2024/%02d.txt", i));
        }
        keys.add("logs/2025/a.txt");
        keys.add("logs/2025/b.txt");
        keys.add("readme");
        keys.add("space key+plus");
        for (String k : keys) {
            s3.putObject(b -> b.bucket("listing").key(k), RequestBody.fromString(k));
        }
        // v2 paging through everything 7 at a time.
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String t = token;
            ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket("listing").maxKeys(7).continuationToken(t));
            page.contents().forEach(o -> seen.add(o.key()));
            token = page.nextContinuationToken();
            pages++;
            assertThat(page.keyCount()).isLessThanOrEqualTo(7);
        } while (token != null);
        assertThat(seen).containsExactlyElementsOf(keys.stream().sorted().toList());
        assertThat(pages).isEqualTo(5);

        ListObjectsV2Response delim = s3.listObjectsV2(b -> b.bucket("listing").prefix("logs/").delimiter("/"));
        assertThat(delim.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("logs/2024/", "logs/2025/");
        assertThat(delim.contents()).isEmpty();

        ListObjectsV2Response paged = s3.listObjectsV2(b -> b.bucket("listing").delimiter("/").maxKeys(1));
        assertThat(paged.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("logs/");
        ListObjectsV2Response next = s3.listObjectsV2(b -> b.bucket("listing").delimiter("/").maxKeys(10)
                .continuationToken(paged.nextContinuationToken()));
        assertThat(next.contents()).extracting(S3Object::key).containsExactly("readme", "space key+plus");

        ListObjectsV2Response after = s3.listObjectsV2(b -> b.bucket("listing").startAfter("logs/2025/a.txt")
                .fetchOwner(true));
        assertThat(after.contents()).extracting(S3Object::key)
                .containsExactly("logs/2025/b.txt", "readme", "space key+plus");
        assertThat(after.contents().get(0).owner().id()).isEqualTo(fixture.owner());

        ListObjectsV2Response none = s3.listObjectsV2(b -> b.bucket("listing").maxKeys(0));
        assertThat(none.contents()).isEmpty();
        assertThat(none.nextContinuationToken()).isNull();

        ListObjectsV2Response encoded = s3.listObjectsV2(b -> b.bucket("listing").prefix("space")
                .encodingType(EncodingType.URL));
        assertThat(encoded.contents()).extracting(S3Object::key).containsExactly("space key+plus");

        // v1 with markers.
        List<String> v1 = new ArrayList<>();
        String marker = null;
        ListObjectsResponse r;
        do {
            String m = marker;
            r = s3.listObjects(b -> b.bucket("listing").maxKeys(10).marker(m));
            r.contents().forEach(o -> v1.add(o.key()));
            marker = r.isTruncated() ? (r.nextMarker() != null ? r.nextMarker()
                    : r.contents().get(r.contents().size() - 1).key()) : null;
        } while (marker != null);
        assertThat(v1).containsExactlyElementsOf(keys.stream().sorted().toList());
        ListObjectsResponse v1delim = s3.listObjects(b -> b.bucket("listing").prefix("logs/").delimiter("/"));
        assertThat(v1delim.commonPrefixes()).hasSize(2);
    }

    /**
     * What {@code aws s3 rb --force}, {@code rclone purge} and test suites' cleanup do: list, delete everything
     * listed, delete the bucket. SOSAPI's virtual objects (on in both targets) are Veeam's: absent from this
     * client's listings, still served by name, and a delete of them succeeds as one of a missing key.
     */
    @Test
    void aBucketEmptiedByItsListingsIsDeleted() {
        String bucket = "emptied";
        bucket(bucket);
        List<String> written = List.of("a", "dir/b", ".system-z");
        for (String key : written) {
            s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(key));
        }
        List<String> sorted = written.stream().sorted().toList();
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents()).extracting(S3Object::key).isEqualTo(sorted);
        assertThat(s3.listObjects(b -> b.bucket(bucket)).contents()).extracting(S3Object::key).isEqualTo(sorted);
        assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(SosapiObjects.PREFIX)).contents()).isEmpty();
        assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(SosapiObjects.SYSTEM_XML)).asUtf8String())
                .contains("<SystemInfo>");

        List<ObjectIdentifier> listed = new ArrayList<>();
        s3.listObjectsV2(b -> b.bucket(bucket)).contents().forEach(o ->
                listed.add(ObjectIdentifier.builder().key(o.key()).build()));
        // A tool that knows SOSAPI's names deletes them too: a delete of a key that is not stored.
        listed.add(ObjectIdentifier.builder().key(SosapiObjects.SYSTEM_XML).build());
        DeleteObjectsResponse deleted = s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(listed)));
        assertThat(deleted.errors()).isEmpty();
        assertThat(deleted.deleted()).extracting(d -> d.key()).containsExactlyInAnyOrderElementsOf(
                listed.stream().map(ObjectIdentifier::key).toList());
        s3.deleteObject(b -> b.bucket(bucket).key(SosapiObjects.CAPACITY_XML));
        s3.deleteBucket(b -> b.bucket(bucket));
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket(bucket)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
    }

    @Test
    void deleteObjectsInBatchesAndQuietly() {
        bucket("batch");
        List<ObjectIdentifier> ids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String k = "k" + i;
            s3.putObject(b -> b.bucket("batch").key(k), RequestBody.fromString("v"));
            ids.add(ObjectIdentifier.builder().key(k).build());
        }
        DeleteObjectsResponse loud = s3.deleteObjects(b -> b.bucket("batch").delete(d -> d.objects(ids.subList(0, 500))));
        assertThat(loud.deleted()).hasSize(500);
        assertThat(loud.errors()).isEmpty();
        DeleteObjectsResponse quiet = s3.deleteObjects(b -> b.bucket("batch")
                .delete(d -> d.objects(ids.subList(500, 1000)).quiet(true)));
        assertThat(quiet.deleted()).isEmpty();
        assertThat(quiet.errors()).isEmpty();
        assertThat(s3.listObjectsV2(b -> b.bucket("batch")).contents()).isEmpty();
        List<ObjectIdentifier> tooMany = new ArrayList<>(ids);
        tooMany.add(ObjectIdentifier.builder().key("one-more").build());
        assertThatThrownBy(() -> s3.deleteObjects(b -> b.bucket("batch").delete(d -> d.objects(tooMany))))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("MalformedXML"));
    }

    @Test
    void copyObjectWithMetadataDirectives() {
        bucket("copies");
        s3.putObject(b -> b.bucket("copies").key("src").contentType("text/a").metadata(Map.of("m", "1")),
                RequestBody.fromString("payload"));
        CopyObjectResponse copied = s3.copyObject(b -> b.sourceBucket("copies").sourceKey("src")
                .destinationBucket("copies").destinationKey("dst"));
        assertThat(copied.copyObjectResult().eTag()).isNotNull();
        HeadObjectResponse h1 = s3.headObject(b -> b.bucket("copies").key("dst"));
        assertThat(h1.contentType()).isEqualTo("text/a");
        assertThat(h1.metadata()).containsEntry("m", "1");
        s3.copyObject(b -> b.sourceBucket("copies").sourceKey("src").destinationBucket("copies")
                .destinationKey("dst2").metadataDirective(MetadataDirective.REPLACE).contentType("text/b")
                .metadata(Map.of("n", "2")));
        HeadObjectResponse h2 = s3.headObject(b -> b.bucket("copies").key("dst2"));
        assertThat(h2.contentType()).isEqualTo("text/b");
        assertThat(h2.metadata()).containsEntry("n", "2").doesNotContainKey("m");
        assertThat(s3.getObjectAsBytes(b -> b.bucket("copies").key("dst2")).asUtf8String()).isEqualTo("payload");
        assertThatThrownBy(() -> s3.copyObject(b -> b.sourceBucket("copies").sourceKey("src")
                .destinationBucket("copies").destinationKey("src"))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest"));
        assertThatThrownBy(() -> s3.copyObject(b -> b.sourceBucket("copies").sourceKey("src")
                .destinationBucket("copies").destinationKey("x").copySourceIfMatch("\"nope\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
    }

    @Test
    void multipartUploadWithCompositeAndFullObjectChecksums() throws Exception {
        bucket("multipart");
        int partSize = 5 << 20;
        byte[] p1 = bytes(partSize);
        byte[] p2 = bytes(partSize);
        byte[] p3 = bytes(12_345);
        for (ChecksumType type : List.of(ChecksumType.COMPOSITE, ChecksumType.FULL_OBJECT)) {
            String key = "big-" + type;
            CreateMultipartUploadResponse created = s3.createMultipartUpload(b -> b.bucket("multipart").key(key)
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32_C).checksumType(type).metadata(Map.of("kind", "mp")));
            String id = created.uploadId();
            List<CompletedPart> parts = new ArrayList<>();
            List<byte[]> datas = List.of(p1, p2, p3);
            for (int i = 0; i < 3; i++) {
                int n = i + 1;
                UploadPartResponse up = s3.uploadPart(b -> b.bucket("multipart").key(key).uploadId(id).partNumber(n)
                        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), RequestBody.fromBytes(datas.get(n - 1)));
                parts.add(CompletedPart.builder().partNumber(n).eTag(up.eTag()).checksumCRC32C(up.checksumCRC32C())
                        .build());
            }
            var listed = s3.listParts(b -> b.bucket("multipart").key(key).uploadId(id).maxParts(2));
            assertThat(listed.parts()).hasSize(2);
            assertThat(listed.isTruncated()).isTrue();
            assertThat(s3.listMultipartUploads(b -> b.bucket("multipart")).uploads())
                    .extracting(u -> u.uploadId()).contains(id);
            var done = s3.completeMultipartUpload(b -> b.bucket("multipart").key(key).uploadId(id)
                    .multipartUpload(m -> m.parts(parts)));
            String expectedEtag = md5hexOfMd5s(List.of(p1, p2, p3)) + "-3";
            assertThat(done.eTag()).isEqualTo("\"" + expectedEtag + "\"");
            assertThat(done.checksumCRC32C()).isNotNull();
            var got = s3.getObjectAsBytes(b -> b.bucket("multipart").key(key).checksumMode(ChecksumMode.ENABLED));
            assertThat(got.asByteArray()).hasSize(2 * partSize + 12_345);
            assertThat(md5(got.asByteArray())).isEqualTo(md5(concat(p1, p2, p3)));
            assertThat(got.response().metadata()).containsEntry("kind", "mp");
            var part2 = s3.getObjectAsBytes(b -> b.bucket("multipart").key(key).partNumber(2));
            assertThat(part2.asByteArray()).isEqualTo(p2);
            assertThat(part2.response().partsCount()).isEqualTo(3);
            assertThat(part2.response().contentRange()).isEqualTo("bytes " + partSize + "-" + (2 * partSize - 1)
                    + "/" + (2 * partSize + 12_345));
            var head3 = s3.headObject(b -> b.bucket("multipart").key(key).partNumber(3));
            assertThat(head3.contentLength()).isEqualTo(12_345);
            assertThat(head3.partsCount()).isEqualTo(3);
            assertThat(s3.headObject(b -> b.bucket("multipart").key(key)).partsCount()).isNull();
            assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("multipart").key(key).partNumber(4)))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(416);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidPartNumber");
                    });
            if (type == ChecksumType.FULL_OBJECT) {
                var single = s3.putObject(b -> b.bucket("multipart").key("single")
                        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), RequestBody.fromBytes(concat(p1, p2, p3)));
                assertThat(done.checksumCRC32C()).isEqualTo(single.checksumCRC32C());
            } else {
                assertThat(done.checksumCRC32C()).endsWith("-3");
            }
        }
        String id = s3.createMultipartUpload(b -> b.bucket("multipart").key("aborted")).uploadId();
        s3.abortMultipartUpload(b -> b.bucket("multipart").key("aborted").uploadId(id));
        assertThatThrownBy(() -> s3.listParts(b -> b.bucket("multipart").key("aborted").uploadId(id)))
                .isInstanceOf(NoSuchUploadException.class);
    }

    @Test
    void uploadPartCopyAndSmallPartsAndBadOrder() {
        bucket("partcopy");
        byte[] src = bytes(6 << 20);
        s3.putObject(b -> b.bucket("partcopy").key("src"), RequestBody.fromBytes(src));
        String id = s3.createMultipartUpload(b -> b.bucket("partcopy").key("dst")).uploadId();
        var c1 = s3.uploadPartCopy(b -> b.sourceBucket("partcopy").sourceKey("src").destinationBucket("partcopy")
                .destinationKey("dst").uploadId(id).partNumber(1));
        var c2 = s3.uploadPartCopy(b -> b.sourceBucket("partcopy").sourceKey("src").destinationBucket("partcopy")
                .destinationKey("dst").uploadId(id).partNumber(2).copySourceRange("bytes=0-99"));
        List<CompletedPart> parts = List.of(
                CompletedPart.builder().partNumber(1).eTag(c1.copyPartResult().eTag()).build(),
                CompletedPart.builder().partNumber(2).eTag(c2.copyPartResult().eTag()).build());
        assertThatThrownBy(() -> s3.completeMultipartUpload(b -> b.bucket("partcopy").key("dst").uploadId(id)
                .multipartUpload(m -> m.parts(parts.get(1), parts.get(0))))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidPartOrder"));
        s3.completeMultipartUpload(b -> b.bucket("partcopy").key("dst").uploadId(id).multipartUpload(m -> m.parts(parts)));
        byte[] got = s3.getObjectAsBytes(b -> b.bucket("partcopy").key("dst")).asByteArray();
        assertThat(got).hasSize(src.length + 100);

        String small = s3.createMultipartUpload(b -> b.bucket("partcopy").key("small")).uploadId();
        var s1 = s3.uploadPart(b -> b.bucket("partcopy").key("small").uploadId(small).partNumber(1),
                RequestBody.fromString("tiny"));
        var s2 = s3.uploadPart(b -> b.bucket("partcopy").key("small").uploadId(small).partNumber(2),
                RequestBody.fromString("tiny"));
        assertThatThrownBy(() -> s3.completeMultipartUpload(b -> b.bucket("partcopy").key("small").uploadId(small)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(s1.eTag()).build(),
                        CompletedPart.builder().partNumber(2).eTag(s2.eTag()).build()))))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("EntityTooSmall"));
    }

    @Test
    void presignedGetAndPutWork() throws Exception {
        bucket("presigned");
        s3.putObject(b -> b.bucket("presigned").key("p"), RequestBody.fromString("hello presigned"));
        HttpClient http = HttpClient.newHttpClient();
        try (S3Presigner presigner = fixture.presigner()) {
            URI get = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket("presigned").key("p"))).url().toURI();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(get).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello presigned");
            assertThat(r.headers().firstValue("x-amz-request-id")).isPresent();

            URI put = presigner.presignPutObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(p -> p.bucket("presigned").key("up"))).url().toURI();
            HttpResponse<String> pr = http.send(HttpRequest.newBuilder(put)
                    .PUT(HttpRequest.BodyPublishers.ofString("uploaded")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(pr.statusCode()).as(pr.body()).isEqualTo(200);
            assertThat(s3.getObjectAsBytes(b -> b.bucket("presigned").key("up")).asUtf8String()).isEqualTo("uploaded");
        }
    }

    @Test
    void largeObjectStreamsBothWays() throws Exception {
        bucket("large");
        byte[] data = bytes(40 << 20);
        s3.putObject(b -> b.bucket("large").key("big"), RequestBody.fromBytes(data));
        MessageDigest md = MessageDigest.getInstance("MD5");
        long total = 0;
        try (InputStream in = s3.getObject(b -> b.bucket("large").key("big"))) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
                total += n;
            }
        }
        assertThat(total).isEqualTo(data.length);
        assertThat(HexFormat.of().formatHex(md.digest())).isEqualTo(md5(data));
        fixture.assertNothingOpen();
    }

    @Test
    void uploadsRollUpByDelimiterAndCopiedPartsCarryTheUploadsChecksum() {
        bucket("uploads-rollup");
        for (String key : List.of("d1/a", "d1/b", "d2/c", "top")) {
            s3.createMultipartUpload(b -> b.bucket("uploads-rollup").key(key));
        }
        var rolled = s3.listMultipartUploads(b -> b.bucket("uploads-rollup").delimiter("/"));
        assertThat(rolled.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("d1/", "d2/");
        assertThat(rolled.uploads()).extracting(u -> u.key()).containsExactly("top");
        assertThat(s3.listMultipartUploads(b -> b.bucket("uploads-rollup").prefix("d1/").delimiter("/")).uploads())
                .extracting(u -> u.key()).containsExactly("d1/a", "d1/b");

        byte[] data = bytes(3000);
        var source = s3.putObject(b -> b.bucket("uploads-rollup").key("src").checksumAlgorithm(ChecksumAlgorithm.CRC32),
                RequestBody.fromBytes(data));
        String id = s3.createMultipartUpload(b -> b.bucket("uploads-rollup").key("copied")
                .checksumAlgorithm(ChecksumAlgorithm.CRC32)).uploadId();
        var copied = s3.uploadPartCopy(b -> b.sourceBucket("uploads-rollup").sourceKey("src")
                .destinationBucket("uploads-rollup").destinationKey("copied").uploadId(id).partNumber(1));
        assertThat(copied.copyPartResult().checksumCRC32()).isEqualTo(source.checksumCRC32());
        var done = s3.completeMultipartUpload(b -> b.bucket("uploads-rollup").key("copied").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1)
                        .eTag(copied.copyPartResult().eTag()).checksumCRC32(source.checksumCRC32()).build())));
        assertThat(done.checksumCRC32()).endsWith("-1");
        assertThat(s3.headObject(b -> b.bucket("uploads-rollup").key("copied").checksumMode(ChecksumMode.ENABLED))
                .checksumCRC32()).isEqualTo(done.checksumCRC32());
    }

    @Test
    void getAndHeadByPartNumberOfASimpleObject() {
        bucket("by-part");
        byte[] data = bytes(1000);
        s3.putObject(b -> b.bucket("by-part").key("simple"), RequestBody.fromBytes(data));
        var whole = s3.getObjectAsBytes(b -> b.bucket("by-part").key("simple").partNumber(1));
        assertThat(whole.asByteArray()).isEqualTo(data);
        assertThat(whole.response().contentRange()).isEqualTo("bytes 0-999/1000");
        assertThat(whole.response().partsCount()).isNull();
        assertThat(s3.headObject(b -> b.bucket("by-part").key("simple").partNumber(1)).contentLength())
                .isEqualTo(1000);
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket("by-part").key("simple").partNumber(2)))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(416));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("by-part").key("simple").partNumber(2)))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidPartNumber"));
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("by-part").key("simple").partNumber(1)
                .range("bytes=0-9"))).isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
                });
        assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("by-part").key("simple").partNumber(10_001)))
                .isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument"));
    }

    @Test
    void wrongSecretAndDisabledAndUnknownKeysAreRefused() {
        try (S3Client bad = fixture.syncClient(fixture.accessKey(), "wrong-secret")) {
            assertThatThrownBy(bad::listBuckets).isInstanceOfSatisfying(S3Exception.class, e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch");
            });
        }
        fixture.disabledKey().ifPresent(key -> {
            try (S3Client off = fixture.syncClient(key[0], key[1])) {
                assertThatThrownBy(off::listBuckets).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied"));
            }
        });
        try (S3Client unknown = fixture.syncClient("AKIDUNKNOWN", "x")) {
            assertThatThrownBy(unknown::listBuckets).isInstanceOfSatisfying(S3Exception.class,
                    e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId"));
        }
    }

    // ---- ACLs (issue #17)

    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    private static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";

    /** The grants as "ID:permission" (canonical users) or "URI:permission" (groups), in order. */
    private static List<String> grants(List<Grant> grants) {
        return grants.stream().map(g -> (g.grantee().type() == Type.GROUP ? g.grantee().uri()
                : g.grantee().type() + "/" + g.grantee().id()) + ":" + g.permissionAsString()).toList();
    }

    private List<String> ownerOnly() {
        return List.of("CanonicalUser/" + fixture.owner() + ":FULL_CONTROL");
    }

    private Grant ownerFullControl() {
        return Grant.builder().grantee(g -> g.type(Type.CANONICAL_USER).id(fixture.owner()))
                .permission(Permission.FULL_CONTROL).build();
    }

    private static Grant group(String uri, Permission permission) {
        return Grant.builder().grantee(g -> g.type(Type.GROUP).uri(uri)).permission(permission).build();
    }

    @Test
    void bucketAclsAreCannedAndReadBack() {
        bucket("acl-bucket");
        GetBucketAclResponse initial = s3.getBucketAcl(b -> b.bucket("acl-bucket"));
        assertThat(initial.owner().id()).isEqualTo(fixture.owner());
        assertThat(initial.owner().displayName()).isNotBlank();
        assertThat(grants(initial.grants())).isEqualTo(ownerOnly());

        s3.putBucketAcl(b -> b.bucket("acl-bucket").acl(BucketCannedACL.PUBLIC_READ_WRITE));
        assertThat(grants(s3.getBucketAcl(b -> b.bucket("acl-bucket")).grants())).containsExactly(
                "CanonicalUser/" + fixture.owner() + ":FULL_CONTROL", ALL_USERS + ":READ", ALL_USERS + ":WRITE");

        // The same thing spelled out as a policy body: the owner's FULL_CONTROL plus a group grant.
        s3.putBucketAcl(b -> b.bucket("acl-bucket").accessControlPolicy(p -> p.owner(o -> o.id(fixture.owner()))
                .grants(ownerFullControl(), group(AUTHENTICATED_USERS, Permission.READ))));
        assertThat(grants(s3.getBucketAcl(b -> b.bucket("acl-bucket")).grants())).containsExactly(
                "CanonicalUser/" + fixture.owner() + ":FULL_CONTROL", AUTHENTICATED_USERS + ":READ");

        s3.putBucketAcl(b -> b.bucket("acl-bucket").acl(BucketCannedACL.PRIVATE));
        assertThat(grants(s3.getBucketAcl(b -> b.bucket("acl-bucket")).grants())).isEqualTo(ownerOnly());

        // x-amz-acl on CreateBucket.
        s3.createBucket(b -> b.bucket("acl-created-public").acl(BucketCannedACL.PUBLIC_READ));
        assertThat(grants(s3.getBucketAcl(b -> b.bucket("acl-created-public")).grants()))
                .contains(ALL_USERS + ":READ");

        // Grants to anyone but the owner and the canned groups are refused, naming the grantee.
        assertThatThrownBy(() -> s3.putBucketAcl(b -> b.bucket("acl-bucket").grantRead("id=\"someone-else\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidArgument");
                    assertThat(e.awsErrorDetails().errorMessage()).contains("Invalid id");
                });
        assertThatThrownBy(() -> s3.putBucketAcl(b -> b.bucket("acl-bucket").accessControlPolicy(p -> p
                .owner(o -> o.id(fixture.owner())).grants(ownerFullControl(), Grant.builder()
                        .grantee(g -> g.type(Type.AMAZON_CUSTOMER_BY_EMAIL).emailAddress("x@example.com"))
                        .permission(Permission.READ).build()))))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(400));
        assertThatThrownBy(() -> s3.putBucketAcl(b -> b.bucket("acl-bucket").accessControlPolicy(p -> p
                .owner(o -> o.id(fixture.owner())).grants(ownerFullControl(), group(ALL_USERS, Permission.WRITE)))))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage()).contains(ALL_USERS);
                });
        // A body and x-amz-acl together.
        assertThatThrownBy(() -> s3.putBucketAcl(b -> b.bucket("acl-bucket").acl(BucketCannedACL.PUBLIC_READ)
                .accessControlPolicy(p -> p.owner(o -> o.id(fixture.owner())).grants(ownerFullControl()))))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(400));
        assertThat(grants(s3.getBucketAcl(b -> b.bucket("acl-bucket")).grants())).isEqualTo(ownerOnly());

        fixture.otherOwnerKey().ifPresent(key -> {
            try (S3Client other = fixture.syncClient(key[0], key[1])) {
                assertThatThrownBy(() -> other.getBucketAcl(b -> b.bucket("acl-bucket")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> other.putBucketAcl(b -> b.bucket("acl-bucket")
                        .acl(BucketCannedACL.PUBLIC_READ_WRITE)))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            }
        });
        assertThatThrownBy(() -> s3.getBucketAcl(b -> b.bucket("acl-no-such-bucket")))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void objectAclsAreSetOnWritesAndChangedInPlace() throws Exception {
        bucket("acl-objects");
        byte[] data = bytes(3000);
        s3.putObject(b -> b.bucket("acl-objects").key("plain"), RequestBody.fromBytes(data));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("plain")).grants()))
                .isEqualTo(ownerOnly());
        s3.putObject(b -> b.bucket("acl-objects").key("public").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromBytes(data));
        GetObjectAclResponse publicAcl = s3.getObjectAcl(b -> b.bucket("acl-objects").key("public"));
        assertThat(publicAcl.owner().id()).isEqualTo(fixture.owner());
        assertThat(grants(publicAcl.grants())).containsExactly("CanonicalUser/" + fixture.owner() + ":FULL_CONTROL",
                ALL_USERS + ":READ");

        // In place: the data and metadata stay.
        s3.putObjectAcl(b -> b.bucket("acl-objects").key("public").acl(ObjectCannedACL.AUTHENTICATED_READ));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("public")).grants()))
                .contains(AUTHENTICATED_USERS + ":READ");
        s3.putObjectAcl(b -> b.bucket("acl-objects").key("public").accessControlPolicy(p -> p
                .owner(o -> o.id(fixture.owner())).grants(ownerFullControl())));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("public")).grants()))
                .isEqualTo(ownerOnly());
        s3.putObjectAcl(b -> b.bucket("acl-objects").key("public").accessControlPolicy(p -> p
                .owner(o -> o.id(fixture.owner())).grants(ownerFullControl(), group(ALL_USERS, Permission.READ))));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("public")).grants()))
                .contains(ALL_USERS + ":READ");
        assertThat(s3.getObjectAsBytes(b -> b.bucket("acl-objects").key("public")).asByteArray()).isEqualTo(data);
        assertThatThrownBy(() -> s3.putObjectAcl(b -> b.bucket("acl-objects").key("public")
                .grantFullControl("id=\"another-account\"")))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage()).contains("Invalid id");
                });
        assertThatThrownBy(() -> s3.getObjectAcl(b -> b.bucket("acl-objects").key("absent")))
                .isInstanceOf(NoSuchKeyException.class);

        // CopyObject takes the ACL its request names, never the source's.
        s3.copyObject(b -> b.sourceBucket("acl-objects").sourceKey("public").destinationBucket("acl-objects")
                .destinationKey("copied-public").acl(ObjectCannedACL.PUBLIC_READ_WRITE));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("copied-public")).grants()))
                .contains(ALL_USERS + ":READ", ALL_USERS + ":WRITE");
        s3.copyObject(b -> b.sourceBucket("acl-objects").sourceKey("public").destinationBucket("acl-objects")
                .destinationKey("copied-private"));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("copied-private")).grants()))
                .isEqualTo(ownerOnly());

        // A multipart upload's ACL applies to the completed object.
        CreateMultipartUploadResponse mpu = s3.createMultipartUpload(b -> b.bucket("acl-objects").key("multi")
                .acl(ObjectCannedACL.PUBLIC_READ));
        UploadPartResponse part = s3.uploadPart(b -> b.bucket("acl-objects").key("multi").uploadId(mpu.uploadId())
                .partNumber(1), RequestBody.fromBytes(data));
        s3.completeMultipartUpload(b -> b.bucket("acl-objects").key("multi").uploadId(mpu.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(part.eTag()).build())));
        assertThat(grants(s3.getObjectAcl(b -> b.bucket("acl-objects").key("multi")).grants()))
                .contains(ALL_USERS + ":READ");

        fixture.otherOwnerKey().ifPresent(key -> {
            try (S3Client other = fixture.syncClient(key[0], key[1])) {
                // READ lets another owner's key GET and HEAD the object, nothing more.
                assertThat(other.getObjectAsBytes(b -> b.bucket("acl-objects").key("multi")).asByteArray())
                        .isEqualTo(data);
                assertThatThrownBy(() -> other.getObjectAcl(b -> b.bucket("acl-objects").key("multi")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> other.getObject(b -> b.bucket("acl-objects").key("plain")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> other.listObjectsV2(b -> b.bucket("acl-objects")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> other.putObject(b -> b.bucket("acl-objects").key("intruder"),
                        RequestBody.fromString("no")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                // authenticated-read on the bucket lets any valid key list it, and still not write.
                s3.putBucketAcl(b -> b.bucket("acl-objects").acl(BucketCannedACL.AUTHENTICATED_READ));
                assertThat(other.listObjectsV2(b -> b.bucket("acl-objects")).contents()).extracting(S3Object::key)
                        .contains("plain", "multi");
                assertThatThrownBy(() -> other.deleteObject(b -> b.bucket("acl-objects").key("plain")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
                assertThatThrownBy(() -> other.getObject(b -> b.bucket("acl-objects").key("plain")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            }
        });
    }

    private static String md5hexOfMd5s(List<byte[]> parts) throws Exception {
        MessageDigest outer = MessageDigest.getInstance("MD5");
        for (byte[] p : parts) {
            outer.update(MessageDigest.getInstance("MD5").digest(p));
        }
        return HexFormat.of().formatHex(outer.digest());
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int off = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, off, p.length);
            off += p.length;
        }
        return out;
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
