package io.shardvault.s3.raw;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.s3.internal.auth.SigV4;
import io.shardvault.s3.internal.checksum.ChecksumFunctions;
import io.shardvault.s3.testing.S3Target;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Bad inputs and protocol corners over raw sockets: every one gets a 4xx S3 XML error with a
 * request id, and the server keeps serving (checked after each test). Runs against an {@link S3Target}:
 * s3-api's {@code RawHttpTest} on the in-memory store, it/'s {@code S3RawHttpIT} on a real cluster.
 */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RawHttpSuite {
    private static final Logger LOG = LoggerFactory.getLogger(RawHttpSuite.class);
    private static final long SEED = System.nanoTime();
    protected S3Target fixture;
    private S3Client s3;
    private final Random random = new Random(SEED);

    /** Starts the plain-HTTP endpoint the suite runs against (once per class). */
    protected abstract S3Target startTarget() throws Exception;

    @BeforeAll
    void start() throws Exception {
        LOG.info("seed {}", SEED);
        fixture = startTarget();
        s3 = fixture.syncClient();
        s3.createBucket(b -> b.bucket("raw"));
    }

    @AfterAll
    void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @AfterEach
    void serverStillServes() {
        s3.putObject(b -> b.bucket("raw").key("alive"), RequestBody.fromString("yes"));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("raw").key("alive")).asUtf8String()).isEqualTo("yes");
    }

    private String host() {
        return "127.0.0.1:" + fixture.port();
    }

    private TestSigner signer() {
        return new TestSigner(fixture.accessKey(), fixture.secretKey(), Instant.now());
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Sends one signed request and reads one response. */
    private RawHttp.Response signed(String method, String path, String query, String payloadHash, byte[] body,
                                    String... extra) throws Exception {
        TestSigner signer = signer();
        List<String[]> h = RawHttp.headers("Host", host(), "x-amz-content-sha256", payloadHash);
        h.addAll(RawHttp.headers(extra));
        if (body != null && !contains(extra, "Content-Length")) {
            h.add(new String[] {"Content-Length", Integer.toString(body.length)});
        }
        List<String[]> all = signer.sign(method, path, query, h);
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head(method, query.isEmpty() ? path : path + "?" + query, all), body);
            return http.read(method.equals("HEAD"));
        }
    }

    private static boolean contains(String[] nameValues, String name) {
        for (int i = 0; i < nameValues.length; i += 2) {
            if (nameValues[i].equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static void assertError(RawHttp.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.xml("Code")).as(r.body()).isEqualTo(code);
        assertThat(r.xml("RequestId")).isNotBlank().isEqualTo(r.header("x-amz-request-id"));
        assertThat(r.xml("Resource")).isNotNull();
        assertThat(r.header("content-type")).isEqualTo("application/xml");
    }

    private static String sha256(byte[] data) {
        return SigV4.sha256Hex(data);
    }

    private static String b64(ChecksumFunctions.Digest d, byte[] data) {
        d.update(data, 0, data.length);
        return Base64.getEncoder().encodeToString(d.finish());
    }

    // ---- authentication

    @Test
    void unsignedRequestsAreRefused() throws Exception {
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", RawHttp.headers("Host", host())), null);
            assertError(http.read(), 403, "AccessDenied");
        }
    }

    /** Sends one unsigned request and reads one response. */
    private RawHttp.Response anonymous(String method, String target, byte[] body) throws Exception {
        List<String[]> h = RawHttp.headers("Host", host());
        if (body != null) {
            h.add(new String[] {"Content-Length", Integer.toString(body.length)});
        }
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head(method, target, h), body);
            return http.read(method.equals("HEAD"));
        }
    }

    @Test
    void anonymousRequestsGetWhatCannedAclsGrantEveryone() throws Exception {
        s3.putObject(b -> b.bucket("raw").key("open").acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("open"));
        s3.putObject(b -> b.bucket("raw").key("closed"), RequestBody.fromString("closed"));
        RawHttp.Response open = anonymous("GET", "/raw/open", null);
        assertThat(open.status()).as(open.body()).isEqualTo(200);
        assertThat(open.body()).isEqualTo("open");
        assertThat(anonymous("HEAD", "/raw/open", null).status()).isEqualTo(200);
        assertError(anonymous("GET", "/raw/closed", null), 403, "AccessDenied");
        // The bucket is private: a missing key is not told apart from a closed one, and nothing else goes.
        assertError(anonymous("GET", "/raw/absent", null), 403, "AccessDenied");
        assertError(anonymous("GET", "/raw?list-type=2", null), 403, "AccessDenied");
        assertError(anonymous("GET", "/raw/open?acl", null), 403, "AccessDenied");
        assertError(anonymous("PUT", "/raw/dropped", "x".getBytes(StandardCharsets.UTF_8)), 403, "AccessDenied");
        assertError(anonymous("DELETE", "/raw/open", null), 403, "AccessDenied");
        assertError(anonymous("GET", "/", null), 403, "AccessDenied");
        assertError(anonymous("GET", "/raw-no-such-bucket/k", null), 404, "NoSuchBucket");
        assertError(anonymous("GET", "/raw-no-such-bucket?acl", null), 404, "NoSuchBucket");
        assertError(anonymous("PUT", "/raw-never-created", null), 403, "AccessDenied");

        // A public-read-write bucket: anyone lists it, writes and deletes in it; what they write is private.
        s3.createBucket(b -> b.bucket("raw-open").acl(BucketCannedACL.PUBLIC_READ_WRITE));
        try {
            RawHttp.Response put = anonymous("PUT", "/raw-open/dropped", "anon".getBytes(StandardCharsets.UTF_8));
            assertThat(put.status()).as(put.body()).isEqualTo(200);
            assertThat(s3.getObjectAsBytes(b -> b.bucket("raw-open").key("dropped")).asUtf8String()).isEqualTo("anon");
            RawHttp.Response list = anonymous("GET", "/raw-open?list-type=2", null);
            assertThat(list.status()).as(list.body()).isEqualTo(200);
            assertThat(list.body()).contains("<Key>dropped</Key>");
            assertThat(anonymous("HEAD", "/raw-open", null).status()).isEqualTo(200);
            assertError(anonymous("GET", "/raw-open/dropped", null), 403, "AccessDenied");
            assertError(anonymous("PUT", "/raw-open", null), 403, "AccessDenied");
            assertThat(anonymous("DELETE", "/raw-open/dropped", null).status()).isEqualTo(204);
            assertThat(s3.listObjectsV2(b -> b.bucket("raw-open")).contents()).isEmpty();
        } finally {
            s3.listObjectsV2(b -> b.bucket("raw-open")).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket("raw-open").key(o.key())));
            s3.deleteBucket(b -> b.bucket("raw-open"));
        }
    }

    @Test
    void signatureV2IsRefused() throws Exception {
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", RawHttp.headers("Host", host(), "Date",
                    "Mon, 01 Jan 2024 00:00:00 GMT", "Authorization", "AWS AKID:c2lnbmF0dXJl")), null);
            assertError(http.read(), 400, "InvalidRequest");
        }
    }

    @Test
    void wrongSignatureIsSignatureDoesNotMatch() throws Exception {
        TestSigner signer = signer();
        List<String[]> h = signer.sign("GET", "/raw", "", RawHttp.headers("Host", host(), "x-amz-content-sha256",
                SigV4.EMPTY_SHA256));
        // The same signature, for another path.
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw/other", h), null);
            RawHttp.Response r = http.read();
            assertError(r, 403, "SignatureDoesNotMatch");
            assertThat(r.xml("StringToSign")).startsWith("AWS4-HMAC-SHA256");
        }
    }

    @Test
    void clockSkewBeyondFifteenMinutesIsRefused() throws Exception {
        TestSigner old = new TestSigner(fixture.accessKey(), fixture.secretKey(),
                Instant.now().minus(Duration.ofMinutes(16)));
        List<String[]> h = old.sign("GET", "/raw", "", RawHttp.headers("Host", host(), "x-amz-content-sha256",
                SigV4.EMPTY_SHA256));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", h), null);
            assertError(http.read(), 403, "RequestTimeTooSkewed");
        }
        TestSigner fine = new TestSigner(fixture.accessKey(), fixture.secretKey(),
                Instant.now().minus(Duration.ofMinutes(14)));
        h = fine.sign("GET", "/raw", "", RawHttp.headers("Host", host(), "x-amz-content-sha256", SigV4.EMPTY_SHA256));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", h), null);
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void unsignedAmzHeadersAreRefused() throws Exception {
        TestSigner signer = signer();
        List<String[]> h = signer.sign("GET", "/raw", "", RawHttp.headers("Host", host(), "x-amz-content-sha256",
                SigV4.EMPTY_SHA256));
        h.add(new String[] {"x-amz-meta-sneaky", "1"});
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", h), null);
            assertError(http.read(), 403, "AccessDenied");
        }
    }

    @Test
    void expiredAndOverlongPresignedUrlsAreRefused() throws Exception {
        Instant signedAt = Instant.now().minus(Duration.ofMinutes(10));
        String amzDate = TestSigner.AMZ.format(signedAt);
        String scope = amzDate.substring(0, 8) + "/us-east-1/s3/aws4_request";
        for (String expires : List.of("60", "604801")) {
            String query = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + fixture.accessKey() + "%2F"
                    + scope.replace("/", "%2F") + "&X-Amz-Date=" + amzDate + "&X-Amz-Expires=" + expires
                    + "&X-Amz-SignedHeaders=host";
            String canonical = "GET\n/raw/alive\n" + query + "\nhost:" + host() + "\n\nhost\nUNSIGNED-PAYLOAD";
            String sts = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
            String sig = SigV4.sign(SigV4.signingKey(fixture.secretKey(), amzDate.substring(0, 8), "us-east-1",
                    "s3"), sts);
            try (RawHttp http = new RawHttp(fixture.port())) {
                http.send(RawHttp.head("GET", "/raw/alive?" + query + "&X-Amz-Signature=" + sig,
                        RawHttp.headers("Host", host())), null);
                RawHttp.Response r = http.read();
                if (expires.equals("60")) {
                    assertError(r, 403, "AccessDenied");
                    assertThat(r.xml("Message")).isEqualTo("Request has expired");
                } else {
                    assertError(r, 400, "AuthorizationQueryParametersError");
                }
            }
        }
    }

    // ---- aws-chunked bodies

    @Test
    void signedChunkedBodiesWithAndWithoutTrailerAreAccepted() throws Exception {
        byte[] data = bytes(200_000);
        for (boolean trailer : new boolean[] {false, true}) {
            TestSigner signer = signer();
            String crc = b64(ChecksumFunctions.create(io.shardvault.s3.ChecksumAlgorithm.CRC32C), data);
            List<String[]> h = RawHttp.headers("Host", host(), "x-amz-content-sha256",
                    trailer ? "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER" : "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                    "Content-Encoding", "aws-chunked", "x-amz-decoded-content-length", Integer.toString(data.length));
            if (trailer) {
                h.add(new String[] {"x-amz-trailer", "x-amz-checksum-crc32c"});
            }
            List<String[]> all = signer.sign("PUT", "/raw/chunked", "", h);
            byte[] body = signer.signedChunks(data, 65536, trailer ? "x-amz-checksum-crc32c" : null, crc);
            all.add(new String[] {"Content-Length", Integer.toString(body.length)});
            try (RawHttp http = new RawHttp(fixture.port())) {
                http.send(RawHttp.head("PUT", "/raw/chunked", all), body);
                RawHttp.Response r = http.read();
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                if (trailer) {
                    assertThat(r.header("x-amz-checksum-crc32c")).isEqualTo(crc);
                }
            }
            assertThat(s3.getObjectAsBytes(b -> b.bucket("raw").key("chunked")).asByteArray()).isEqualTo(data);
        }
    }

    private RawHttp.Response sendChunked(TestSigner signer, List<String[]> signedHeaders, byte[] body) throws Exception {
        List<String[]> all = new ArrayList<>(signedHeaders);
        all.add(new String[] {"Content-Length", Integer.toString(body.length)});
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", "/raw/bad-chunked", all), body);
            return http.read();
        }
    }

    private List<String[]> chunkedHeaders(TestSigner signer, int decodedLength) {
        return signer.sign("PUT", "/raw/bad-chunked", "", RawHttp.headers("Host", host(), "x-amz-content-sha256",
                "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "Content-Encoding", "aws-chunked",
                "x-amz-decoded-content-length", Integer.toString(decodedLength)));
    }

    @Test
    void wrongChunkSignatureIsRefused() throws Exception {
        byte[] data = bytes(100_000);
        TestSigner signer = signer();
        List<String[]> h = chunkedHeaders(signer, data.length);
        byte[] body = signer.signedChunks(data, 65536, null, null);
        int firstData = new String(body, 0, 200, StandardCharsets.ISO_8859_1).indexOf("\r\n") + 2;
        body[firstData + 10] ^= 1;
        assertError(sendChunked(signer, h, body), 403, "SignatureDoesNotMatch");
        assertThat(s3.listObjectsV2(b -> b.bucket("raw").prefix("bad-chunked")).contents()).isEmpty();
    }

    @Test
    void truncatedAndCorruptChunkedBodiesAreIncompleteBody() throws Exception {
        byte[] data = bytes(100_000);
        TestSigner signer = signer();
        List<String[]> h = chunkedHeaders(signer, data.length);
        byte[] body = signer.signedChunks(data, 65536, null, null);
        // Truncated: Content-Length says so, but the aws-chunked framing is cut mid-chunk.
        assertError(sendChunked(signer, h, java.util.Arrays.copyOf(body, body.length / 2)), 400, "IncompleteBody");
        // Corrupt: the first chunk size is not hex.
        byte[] corrupt = body.clone();
        corrupt[0] = 'z';
        assertError(sendChunked(signer, h, corrupt), 400, "IncompleteBody");
        // Framing that carries fewer bytes than x-amz-decoded-content-length declares.
        TestSigner s2 = signer();
        List<String[]> h2 = chunkedHeaders(s2, data.length + 10);
        assertError(sendChunked(s2, h2, s2.signedChunks(data, 65536, null, null)), 400, "IncompleteBody");
        assertThat(s3.listObjectsV2(b -> b.bucket("raw").prefix("bad-chunked")).contents()).isEmpty();
    }

    @Test
    void unsignedTrailerChecksumsAreVerified() throws Exception {
        byte[] data = bytes(150_000);
        for (io.shardvault.s3.ChecksumAlgorithm alg : io.shardvault.s3.ChecksumAlgorithm.values()) {
            String good = b64(ChecksumFunctions.create(alg), data);
            for (boolean corrupt : new boolean[] {false, true}) {
                byte[] other = data.clone();
                other[0] ^= 1;
                String value = corrupt ? b64(ChecksumFunctions.create(alg), other) : good;
                byte[] body = TestSigner.unsignedChunks(data, 8192, alg.headerName(), value);
                RawHttp.Response r = signed("PUT", "/raw/trailer", "", "STREAMING-UNSIGNED-PAYLOAD-TRAILER", body,
                        "Content-Encoding", "aws-chunked", "x-amz-decoded-content-length",
                        Integer.toString(data.length), "x-amz-trailer", alg.headerName());
                if (corrupt) {
                    assertError(r, 400, "BadDigest");
                } else {
                    assertThat(r.status()).as(alg + " " + r.body()).isEqualTo(200);
                    assertThat(r.header(alg.headerName())).isEqualTo(good);
                }
            }
        }
    }

    @Test
    void headerChecksumsContentMd5AndPayloadHashAreVerified() throws Exception {
        byte[] data = bytes(5000);
        byte[] other = data.clone();
        other[100] ^= 4;
        for (io.shardvault.s3.ChecksumAlgorithm alg : io.shardvault.s3.ChecksumAlgorithm.values()) {
            assertThat(signed("PUT", "/raw/h", "", "UNSIGNED-PAYLOAD", data, alg.headerName(),
                    b64(ChecksumFunctions.create(alg), data)).status()).isEqualTo(200);
            assertError(signed("PUT", "/raw/h", "", "UNSIGNED-PAYLOAD", data, alg.headerName(),
                    b64(ChecksumFunctions.create(alg), other)), 400, "BadDigest");
        }
        String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
        String wrongMd5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(other));
        assertThat(signed("PUT", "/raw/h", "", "UNSIGNED-PAYLOAD", data, "Content-MD5", md5).status()).isEqualTo(200);
        assertError(signed("PUT", "/raw/h", "", "UNSIGNED-PAYLOAD", data, "Content-MD5", wrongMd5), 400, "BadDigest");
        assertError(signed("PUT", "/raw/h", "", "UNSIGNED-PAYLOAD", data, "Content-MD5", "not-base64!"), 400,
                "InvalidDigest");
        assertThat(signed("PUT", "/raw/h", "", sha256(data), data).status()).isEqualTo(200);
        assertError(signed("PUT", "/raw/h", "", sha256(other), data), 400, "XAmzContentSHA256Mismatch");
    }

    @Test
    void crc64nvmeMatchesItsCatalogueCheckValueAndIsStoredByDefault() throws Exception {
        ChecksumFunctions.Digest d = ChecksumFunctions.create(io.shardvault.s3.ChecksumAlgorithm.CRC64NVME);
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        d.update(check, 0, check.length);
        assertThat(d.finishAsLong()).isEqualTo(0xAE8B14860A799888L);
        byte[] data = bytes(1000);
        RawHttp.Response put = signed("PUT", "/raw/nvme", "", "UNSIGNED-PAYLOAD", data);
        assertThat(put.status()).isEqualTo(200);
        String expected = b64(ChecksumFunctions.create(io.shardvault.s3.ChecksumAlgorithm.CRC64NVME), data);
        RawHttp.Response head = signed("HEAD", "/raw/nvme", "", SigV4.EMPTY_SHA256, null, "x-amz-checksum-mode",
                "ENABLED");
        assertThat(head.header("x-amz-checksum-crc64nvme")).isEqualTo(expected);
        assertThat(head.header("x-amz-checksum-type")).isEqualTo("FULL_OBJECT");
    }

    // ---- bodies shorter or longer than declared

    @Test
    void bodyShorterThanContentLengthIsIncompleteBody() throws Exception {
        TestSigner signer = signer();
        List<String[]> h = signer.sign("PUT", "/raw/short", "", RawHttp.headers("Host", host(),
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "Content-Length", "1000"));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", "/raw/short", h), bytes(400));
            http.shutdownOutput();
            assertError(http.read(), 400, "IncompleteBody");
        }
        assertThat(s3.listObjectsV2(b -> b.bucket("raw").prefix("short")).contents()).isEmpty();
    }

    @Test
    void bytesBeyondContentLengthAreAnErrorNotPartOfTheObject() throws Exception {
        TestSigner signer = signer();
        List<String[]> h = signer.sign("PUT", "/raw/long", "", RawHttp.headers("Host", host(),
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "Content-Length", "10"));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", "/raw/long", h), "0123456789 and some trailing garbage\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(http.read().status()).isEqualTo(200);
            RawHttp.Response second = http.read();
            assertThat(second.status()).isEqualTo(400);
            assertThat(http.closedByServer()).isTrue();
        }
        assertThat(s3.getObjectAsBytes(b -> b.bucket("raw").key("long")).asUtf8String()).isEqualTo("0123456789");
    }

    // ---- XML

    private RawHttp.Response deleteObjects(String xml) throws Exception {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(body));
        return signed("POST", "/raw", "delete", sha256(body), body, "Content-MD5", md5);
    }

    @Test
    void malformedXmlDtdsAndExternalEntitiesAreMalformedXml() throws Exception {
        assertError(deleteObjects("<Delete><Object><Key>a</Key></Object>"), 400, "MalformedXML");
        assertError(deleteObjects("not xml at all"), 400, "MalformedXML");
        assertError(deleteObjects("<Other/>"), 400, "MalformedXML");
        assertError(deleteObjects("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x \"boom\">]>"
                + "<Delete><Object><Key>&x;</Key></Object></Delete>"), 400, "MalformedXML");
        assertError(deleteObjects("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<Delete><Object><Key>&x;</Key></Object></Delete>"), 400, "MalformedXML");
        assertError(deleteObjects("<?xml version=\"1.0\"?><!DOCTYPE d SYSTEM \"http://127.0.0.1:1/x.dtd\">"
                + "<Delete><Object><Key>a</Key></Object></Delete>"), 400, "MalformedXML");
        RawHttp.Response ok = deleteObjects("<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                + "<Object><Key>a&amp;b</Key></Object></Delete>");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.body()).contains("<Key>a&amp;b</Key>");
    }

    @Test
    void oversizedXmlIsRefusedBeforeTheBodyIsRead() throws Exception {
        TestSigner signer = signer();
        int size = 3 << 20;
        List<String[]> h = signer.sign("POST", "/raw", "delete", RawHttp.headers("Host", host(),
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "Content-Length", Integer.toString(size),
                "Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==", "Expect", "100-continue"));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("POST", "/raw?delete", h), null);
            assertError(http.read(), 400, "MaxMessageLengthExceeded");
        }
        // Sent anyway with chunked transfer encoding, it is cut off at the limit.
        h = signer.sign("POST", "/raw", "delete", RawHttp.headers("Host", host(),
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "Transfer-Encoding", "chunked",
                "Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg=="));
        StringBuilder chunks = new StringBuilder();
        String piece = "<Delete>" + "x".repeat(65_000);
        for (int i = 0; i < 40; i++) {
            chunks.append(Integer.toHexString(piece.length())).append("\r\n").append(piece).append("\r\n");
        }
        chunks.append("0\r\n\r\n");
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("POST", "/raw?delete", h), chunks.toString().getBytes(StandardCharsets.US_ASCII));
            assertError(http.read(), 400, "MaxMessageLengthExceeded");
        }
    }

    // ---- names, URIs, headers

    @Test
    void invalidBucketNamesLongKeysAndBadPercentEncoding() throws Exception {
        for (String bucket : List.of("AB", "a..b", "-abc", "ab", "a_b", "192.168.1.1", "xn--abc")) {
            assertError(signed("GET", "/" + bucket, "", SigV4.EMPTY_SHA256, null), 400, "InvalidBucketName");
        }
        String longKey = "k".repeat(1025);
        assertError(signed("PUT", "/raw/" + longKey, "", "UNSIGNED-PAYLOAD", new byte[1]), 400, "KeyTooLongError");
        assertThat(signed("PUT", "/raw/" + "k".repeat(1024), "", "UNSIGNED-PAYLOAD", new byte[1]).status())
                .isEqualTo(200);
        for (String bad : List.of("/raw/%zz", "/raw/%C3%28", "/raw/abc%2")) {
            try (RawHttp http = new RawHttp(fixture.port())) {
                http.send(RawHttp.head("GET", bad, RawHttp.headers("Host", host())), null);
                assertError(http.read(), 400, "InvalidURI");
            }
        }
    }

    @Test
    void headerLimitsAreEnforced() throws Exception {
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", RawHttp.headers("Host", host(), "X-Big", "v".repeat(20_000))), null);
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(431);
            assertThat(r.header("x-amz-request-id")).isNotBlank();
        }
        List<String[]> many = RawHttp.headers("Host", host());
        for (int i = 0; i < 200; i++) {
            many.add(new String[] {"X-H" + i, "v"});
        }
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw", many), null);
            assertThat(http.read().status()).isEqualTo(431);
        }
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", "/raw/" + "a".repeat(20_000), RawHttp.headers("Host", host())), null);
            assertThat(http.read().status()).isEqualTo(414);
        }
    }

    @Test
    void unimplementedAndDisallowedOperations() throws Exception {
        assertError(signed("GET", "/raw", "cors", SigV4.EMPTY_SHA256, null), 501, "NotImplemented");
        assertError(signed("GET", "/raw", "object-lock", SigV4.EMPTY_SHA256, null), 404,
                "ObjectLockConfigurationNotFoundError");
        assertError(signed("PUT", "/raw", "object-lock", SigV4.EMPTY_SHA256, new byte[0]), 400, "MalformedXML");
        assertError(signed("GET", "/raw/alive", "retention", SigV4.EMPTY_SHA256, null), 400, "InvalidRequest");
        assertError(signed("PUT", "/raw/alive", "tagging", SigV4.EMPTY_SHA256, new byte[0]), 501, "NotImplemented");
        // (ListObjectVersions is served by the cluster's store and NotImplemented by the in-memory one.)
        assertError(signed("GET", "/raw", "policy", SigV4.EMPTY_SHA256, null), 501, "NotImplemented");
        assertError(signed("GET", "/raw", "lifecycle", SigV4.EMPTY_SHA256, null), 501, "NotImplemented");
        assertError(signed("PATCH", "/raw/alive", "", SigV4.EMPTY_SHA256, null), 405, "MethodNotAllowed");
    }

    // ---- connection behaviour

    @Test
    void expectContinueIsAnsweredOnlyAfterAuthentication() throws Exception {
        byte[] data = bytes(1000);
        TestSigner signer = signer();
        List<String[]> h = signer.sign("PUT", "/raw/expect", "", RawHttp.headers("Host", host(),
                "x-amz-content-sha256", "UNSIGNED-PAYLOAD", "Content-Length", "1000", "Expect", "100-continue"));
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", "/raw/expect", h), null);
            assertThat(http.read().status()).isEqualTo(100);
            http.send("", data);
            assertThat(http.read().status()).isEqualTo(200);
        }
        List<String[]> bad = new ArrayList<>(h);
        bad.removeIf(x -> x[0].equals("Authorization"));
        bad.add(new String[] {"Authorization", h.stream().filter(x -> x[0].equals("Authorization")).findFirst()
                .orElseThrow()[1].replaceAll("Signature=.*", "Signature=" + "0".repeat(64))});
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", "/raw/expect", bad), null);
            RawHttp.Response r = http.read();
            assertError(r, 403, "SignatureDoesNotMatch");
        }
    }

    @Test
    void keepAliveServesManyRequestsOnOneConnectionAndVirtualHostsWork() throws Exception {
        try (RawHttp http = new RawHttp(fixture.port())) {
            for (int i = 0; i < 5; i++) {
                TestSigner signer = signer();
                List<String[]> h = signer.sign("GET", "/alive", "", RawHttp.headers("Host",
                        "raw.localhost:" + fixture.port(), "x-amz-content-sha256", SigV4.EMPTY_SHA256));
                http.send(RawHttp.head("GET", "/alive", h), null);
                RawHttp.Response r = http.read();
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("yes");
            }
        }
    }
}
