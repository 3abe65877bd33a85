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

    /** Sends one request with these headers and reads one response. */
    private RawHttp.Response send(String method, String target, List<String[]> headers, byte[] body)
            throws Exception {
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head(method, target, headers), body);
            return http.read(method.equals("HEAD"));
        }
    }

    @Test
    void signatureV2HeadersAreVerified() throws Exception {
        TestSigner signer = signer();
        byte[] body = "v2 body".getBytes(StandardCharsets.UTF_8);
        String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(body));
        // Date, Content-MD5, Content-Type and repeated x-amz-* headers, path style.
        List<String[]> put = signer.signV2("PUT", "/raw/v2obj", RawHttp.headers("Host", host(), "Date",
                signer.httpDate(), "Content-MD5", md5, "Content-Type", "text/plain", "x-amz-meta-b", "2",
                "X-Amz-Meta-A", "1", "x-amz-meta-a", "one", "Content-Length", Integer.toString(body.length)));
        assertThat(send("PUT", "/raw/v2obj", put, body).status()).isEqualTo(200);
        // x-amz-date instead of Date, and a signed sub-resource whose value is percent-decoded.
        List<String[]> get = signer.signV2("GET", "/raw/v2obj?response-content-type=text/x-v2",
                RawHttp.headers("Host", host(), "x-amz-date", signer.httpDate()));
        RawHttp.Response r = send("GET", "/raw/v2obj?response-content-type=text%2Fx-v2", get, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("v2 body");
        assertThat(r.header("content-type")).isEqualTo("text/x-v2");
        assertThat(r.header("x-amz-meta-a")).isEqualTo("1,one");
        // Virtual-host addressing signs /bucket before the path; ?location is signed without a value.
        String vhost = "raw.localhost:" + fixture.port();
        List<String[]> loc = signer.signV2("GET", "/raw/?location", RawHttp.headers("Host", vhost, "Date",
                signer.httpDate()));
        assertThat(send("GET", "/?location", loc, null).status()).isEqualTo(200);
        // botocore signs a path-style bucket request as /bucket/ while sending /bucket.
        List<String[]> list = signer.signV2("GET", "/raw/", RawHttp.headers("Host", host(), "Date", signer.httpDate()));
        assertThat(send("GET", "/raw?list-type=2", list, null).status()).isEqualTo(200);
        // minio-go signs ?retention as a sub-resource, botocore leaves it out: either verifies.
        for (String resource : List.of("/raw/v2obj?retention", "/raw/v2obj")) {
            List<String[]> retention = signer.signV2("GET", resource, RawHttp.headers("Host", host(), "Date",
                    signer.httpDate()));
            RawHttp.Response answer = send("GET", "/raw/v2obj?retention", retention, null);
            assertThat(answer.status()).as(answer.body()).isNotEqualTo(403);
        }

        // The same signature for another resource: SignatureDoesNotMatch with our StringToSign, never the secret.
        r = send("GET", "/raw/alive?response-content-type=text%2Fx-v2", get, null);
        assertError(r, 403, "SignatureDoesNotMatch");
        assertThat(r.xml("StringToSign")).isEqualTo("GET\n\n\n\nx-amz-date:" + signer.httpDate()
                + "\n/raw/alive?response-content-type=text/x-v2");
        assertThat(r.body()).doesNotContain(fixture.secretKey());
        // An unknown key, a stale date, a body that does not match its Content-MD5.
        List<String[]> unknown = new TestSigner("AKIDNOBODY", "x", Instant.now()).signV2("GET", "/raw",
                RawHttp.headers("Host", host(), "Date", signer.httpDate()));
        assertError(send("GET", "/raw", unknown, null), 403, "InvalidAccessKeyId");
        TestSigner old = new TestSigner(fixture.accessKey(), fixture.secretKey(),
                Instant.now().minus(Duration.ofMinutes(16)));
        List<String[]> stale = old.signV2("GET", "/raw", RawHttp.headers("Host", host(), "Date", old.httpDate()));
        assertError(send("GET", "/raw", stale, null), 403, "RequestTimeTooSkewed");
        assertError(send("GET", "/raw", RawHttp.headers("Host", host(), "Authorization", "AWS "
                + fixture.accessKey() + ":c2lnbmF0dXJl"), null), 403, "AccessDenied");
        byte[] other = "other body".getBytes(StandardCharsets.UTF_8);
        List<String[]> badMd5 = signer.signV2("PUT", "/raw/v2bad", RawHttp.headers("Host", host(), "Date",
                signer.httpDate(), "Content-MD5", md5, "Content-Length", Integer.toString(other.length)));
        assertError(send("PUT", "/raw/v2bad", badMd5, other), 400, "BadDigest");
        // Signed aws-chunked bodies chain from a SigV4 signature; a SigV2 request has none.
        List<String[]> chunked = signer.signV2("PUT", "/raw/v2chunked", RawHttp.headers("Host", host(), "Date",
                signer.httpDate(), "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                "x-amz-decoded-content-length", "0", "Content-Length", "0"));
        assertError(send("PUT", "/raw/v2chunked", chunked, new byte[0]), 400, "InvalidRequest");
    }

    @Test
    void signatureV2PresignedUrlsAreVerified() throws Exception {
        TestSigner signer = signer();
        long expires = Instant.now().plusSeconds(300).getEpochSecond();
        byte[] body = "presigned v2".getBytes(StandardCharsets.UTF_8);
        String put = "/raw/v2url?" + signer.presignV2("PUT", "/raw/v2url", expires);
        assertThat(send("PUT", put, RawHttp.headers("Host", host(), "Content-Length",
                Integer.toString(body.length)), body).status()).isEqualTo(200);
        String get = "/raw/v2url?" + signer.presignV2("GET", "/raw/v2url", expires);
        RawHttp.Response r = send("GET", get, RawHttp.headers("Host", host()), null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("presigned v2");
        // A GET URL used for a HEAD, a tampered Expires, an expired URL.
        assertThat(send("HEAD", get, RawHttp.headers("Host", host()), null).status()).isEqualTo(403);
        assertError(send("GET", get.replace("Expires=" + expires, "Expires=" + (expires + 1)),
                RawHttp.headers("Host", host()), null), 403, "SignatureDoesNotMatch");
        long past = Instant.now().minusSeconds(1).getEpochSecond();
        r = send("GET", "/raw/v2url?" + signer.presignV2("GET", "/raw/v2url", past), RawHttp.headers("Host", host()),
                null);
        assertError(r, 403, "AccessDenied");
        assertThat(r.xml("Message")).isEqualTo("Request has expired");
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
    void nonAsciiMetadataIsVerifiedOverItsUtf8BytesAndAnsweredAsRfc2047() throws Exception {
        String value = "na\u00efve \u2603";
        String utf8OnTheWire = new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        String[][] cases = {
            // as Go and HttpURLConnection send it (UTF-8 bytes), as Netty/Apache clients send Latin-1, as RFC 2047
            {"utf8", value, utf8OnTheWire, value},
            {"latin1", "na\u00efve", "na\u00efve", "na\u00efve"},
            {"rfc2047", "=?UTF-8?B?bmHDr3ZlIOKYgw==?=", "=?UTF-8?B?bmHDr3ZlIOKYgw==?=", value},
        };
        for (String[] c : cases) {
            List<String[]> h = signer().sign("PUT", "/raw/meta-" + c[0], "", RawHttp.headers("Host", host(),
                    "x-amz-content-sha256", SigV4.EMPTY_SHA256, "x-amz-meta-m", c[1], "Content-Length", "0"));
            for (String[] header : h) {
                if (header[0].equals("x-amz-meta-m")) {
                    header[1] = c[2];
                }
            }
            RawHttp.Response put = send("PUT", "/raw/meta-" + c[0], h, new byte[0]);
            assertThat(put.status()).as(c[0] + ": " + put.body()).isEqualTo(200);
            RawHttp.Response head = signed("HEAD", "/raw/meta-" + c[0], "", SigV4.EMPTY_SHA256, null);
            String answered = head.header("x-amz-meta-m");
            assertThat(answered).as(c[0]).matches("=\\?UTF-8\\?B\\?[A-Za-z0-9+/=]+\\?=");
            assertThat(new String(Base64.getDecoder().decode(answered.substring(10, answered.length() - 2)),
                    StandardCharsets.UTF_8)).as(c[0]).isEqualTo(c[3]);
        }
    }

    @Test
    void expiredAndOverlongPresignedUrlsAreRefused() throws Exception {
        Instant signedAt = Instant.now().minus(Duration.ofMinutes(10));
        assertPresignedRefusals(signedAt, List.of("60", "604801", "-1", "soon"));
    }

    @Test
    void presignedUrlsNotYetValidAreAccessDenied() throws Exception {
        // Dated beyond the skew: refused as not valid yet, before the (here also wrong) signature is looked at.
        assertPresignedRefusals(Instant.now().plus(Duration.ofMinutes(30)), List.of("3600"));
    }

    /** Presigned GETs dated signedAt, for each X-Amz-Expires, with the expected refusal of each. */
    private void assertPresignedRefusals(Instant signedAt, List<String> expiresValues) throws Exception {
        String amzDate = TestSigner.AMZ.format(signedAt);
        String scope = amzDate.substring(0, 8) + "/us-east-1/s3/aws4_request";
        boolean future = signedAt.isAfter(Instant.now());
        for (String expires : expiresValues) {
            String query = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + fixture.accessKey() + "%2F"
                    + scope.replace("/", "%2F") + "&X-Amz-Date=" + amzDate + "&X-Amz-Expires=" + expires
                    + "&X-Amz-SignedHeaders=host";
            String canonical = "GET\n/raw/alive\n" + query + "\nhost:" + host() + "\n\nhost\nUNSIGNED-PAYLOAD";
            String sts = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
            String sig = SigV4.sign(SigV4.signingKey(fixture.secretKey(), amzDate.substring(0, 8), "us-east-1",
                    "s3"), sts);
            try (RawHttp http = new RawHttp(fixture.port())) {
                http.send(RawHttp.head("GET", "/raw/alive?" + query + "&X-Amz-Signature="
                        + (future ? sig.replace(sig.charAt(0), sig.charAt(0) == 'a' ? 'b' : 'a') : sig),
                        RawHttp.headers("Host", host())), null);
                RawHttp.Response r = http.read();
                if (future) {
                    assertError(r, 403, "AccessDenied");
                    assertThat(r.xml("Message")).isEqualTo("Request is not valid yet");
                } else if (expires.equals("60")) {
                    assertError(r, 403, "AccessDenied");
                    assertThat(r.xml("Message")).isEqualTo("Request has expired");
                } else {
                    // Out of range or not a number: AWS's 400, whatever the date.
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

    // ---- Transfer-Encoding: chunked (no Content-Length, no aws-chunked framing)

    /** {@code data} in HTTP/1.1 chunked transfer coding, in pieces of varied sizes. */
    private byte[] transferChunked(byte[] data) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int at = 0;
        while (at < data.length) {
            int n = Math.min(data.length - at, 1 + random.nextInt(70_000));
            out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(data, at, n);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            at += n;
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** Sends a signed PUT whose body goes with chunked transfer coding and reads the answer. */
    private RawHttp.Response putTransferChunked(String path, String query, String payloadHash, byte[] data)
            throws Exception {
        List<String[]> h = signer().sign("PUT", path, query, RawHttp.headers("Host", host(),
                "x-amz-content-sha256", payloadHash));
        h.add(new String[] {"Transfer-Encoding", "chunked"});
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("PUT", query.isEmpty() ? path : path + "?" + query, h), transferChunked(data));
            return http.read();
        }
    }

    @Test
    void chunkedTransferEncodingBodiesAreStreamedIntoObjectsAndParts() throws Exception {
        for (int size : new int[] {0, 1, 300_000, (1 << 20) + 3}) {
            byte[] data = bytes(size);
            for (String hash : List.of("UNSIGNED-PAYLOAD", sha256(data))) {
                RawHttp.Response r = putTransferChunked("/raw/te-chunked", "", hash, data);
                assertThat(r.status()).as(size + " " + r.body()).isEqualTo(200);
                assertThat(s3.getObjectAsBytes(b -> b.bucket("raw").key("te-chunked")).asByteArray())
                        .as("size %d", size).isEqualTo(data);
                assertThat(s3.headObject(b -> b.bucket("raw").key("te-chunked")).contentLength()).isEqualTo(size);
            }
        }
        byte[] wrong = bytes(1000);
        assertError(putTransferChunked("/raw/te-chunked-bad", "", sha256(bytes(10)), wrong), 400,
                "XAmzContentSHA256Mismatch");
        String uploadId = s3.createMultipartUpload(b -> b.bucket("raw").key("te-parts")).uploadId();
        byte[] part = bytes(700_000);
        RawHttp.Response up = putTransferChunked("/raw/te-parts", "partNumber=1&uploadId=" + uploadId,
                "UNSIGNED-PAYLOAD", part);
        assertThat(up.status()).as(up.body()).isEqualTo(200);
        s3.completeMultipartUpload(b -> b.bucket("raw").key("te-parts").uploadId(uploadId)
                .multipartUpload(m -> m.parts(software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                        .partNumber(1).eTag(up.header("etag")).build())));
        assertThat(s3.getObjectAsBytes(b -> b.bucket("raw").key("te-parts")).asByteArray()).isEqualTo(part);
    }

    // ---- headers

    @Test
    void dateAndLastModifiedAreImfFixdates() throws Exception {
        RawHttp.Response r = signed("GET", "/raw/alive", "", SigV4.EMPTY_SHA256, null);
        assertThat(r.status()).isEqualTo(200);
        String imfFixdate = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] [A-Z][a-z]{2} [0-9]{4} "
                + "[0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT";
        assertThat(r.header("date")).matches(imfFixdate);
        assertThat(r.header("last-modified")).matches(imfFixdate);
    }

    /** A signed GET of {@code path} with one more header, unsigned (asctime's double space is sent as is). */
    private RawHttp.Response getWith(String path, String name, String value) throws Exception {
        List<String[]> h = signer().sign("GET", path, "", RawHttp.headers("Host", host(), "x-amz-content-sha256",
                SigV4.EMPTY_SHA256));
        h.add(new String[] {name, value});
        try (RawHttp http = new RawHttp(fixture.port())) {
            http.send(RawHttp.head("GET", path, h), null);
            return http.read();
        }
    }

    @Test
    void conditionalDatesAreReadInEveryHttpFormatAndBadOnesIgnored() throws Exception {
        for (String old : List.of("Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                "Sun Nov  6 08:49:37 1994")) {
            assertThat(getWith("/raw/alive", "If-Modified-Since", old).status()).as(old).isEqualTo(200);
            assertError(getWith("/raw/alive", "If-Unmodified-Since", old), 412, "PreconditionFailed");
        }
        assertThat(getWith("/raw/alive", "If-Unmodified-Since", "not a date").status()).isEqualTo(200);
    }

    @Test
    void repeatedHeadersAreJoinedAsOneList() throws Exception {
        RawHttp.Response put = signed("PUT", "/raw/twice", "", "UNSIGNED-PAYLOAD", bytes(10),
                "Content-Encoding", "deflate", "Content-Encoding", "deflate");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        RawHttp.Response head = signed("HEAD", "/raw/twice", "", SigV4.EMPTY_SHA256, null);
        assertThat(head.header("content-encoding")).isEqualTo("deflate, deflate");
    }

    @Test
    void writesAskingForEncryptionTagsOrAnotherStorageClassAreRefusedNotIgnored() throws Exception {
        String[][] refused = {
            {"x-amz-server-side-encryption", "AES256", "501", "NotImplemented"},
            {"x-amz-server-side-encryption-customer-algorithm", "AES256", "501", "NotImplemented"},
            {"x-amz-tagging", "a=b", "501", "NotImplemented"},
            {"x-amz-storage-class", "GLACIER", "400", "InvalidStorageClass"},
        };
        for (String[] h : refused) {
            assertError(signed("PUT", "/raw/unserved", "", "UNSIGNED-PAYLOAD", bytes(10), h[0], h[1]),
                    Integer.parseInt(h[2]), h[3]);
            assertError(signed("POST", "/raw/unserved", "uploads=", SigV4.EMPTY_SHA256, null, h[0], h[1]),
                    Integer.parseInt(h[2]), h[3]);
        }
        assertError(signed("GET", "/raw/unserved", "", SigV4.EMPTY_SHA256, null), 404, "NoSuchKey");
        RawHttp.Response standard = signed("PUT", "/raw/standard", "", "UNSIGNED-PAYLOAD", bytes(10),
                "x-amz-storage-class", "STANDARD");
        assertThat(standard.status()).as(standard.body()).isEqualTo(200);
    }

    // ---- listings

    @Test
    void anEmptyContinuationTokenListsFromTheStart() throws Exception {
        // An empty token is the absence of one (ceph's s3-tests, Apache Ozone's HDDS-15739), echoed back empty;
        // a token that is not one of ours is still InvalidArgument.
        assertThat(signed("PUT", "/raw/listed-from-start", "", SigV4.EMPTY_SHA256, new byte[0]).status())
                .isEqualTo(200);
        RawHttp.Response r = signed("GET", "/raw", "continuation-token=&list-type=2", SigV4.EMPTY_SHA256, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("<ContinuationToken></ContinuationToken>")
                .contains("<Key>listed-from-start</Key>");
        RawHttp.Response bad = signed("GET", "/raw", "continuation-token=bm90LW91cnM&list-type=2",
                SigV4.EMPTY_SHA256, null);
        assertError(bad, 400, "InvalidArgument");
        assertThat(bad.xml("ArgumentName")).isEqualTo("continuation-token");
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
        // (ListObjectVersions and the lifecycle are served by the cluster's store and NotImplemented by the
        // in-memory one.)
        assertError(signed("GET", "/raw", "policy", SigV4.EMPTY_SHA256, null), 501, "NotImplemented");
        assertError(signed("GET", "/raw", "website", SigV4.EMPTY_SHA256, null), 501, "NotImplemented");
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
