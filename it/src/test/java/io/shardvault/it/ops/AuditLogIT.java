package io.shardvault.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.shardvault.coordinator.audit.AuditLogConfig;
import io.shardvault.coordinator.audit.AuditLogFile;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.testing.S3ServerFixture;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;

/**
 * The S3 audit log as the coordinator service writes it ({@link AuditLogFile}: Logback's rolling file and
 * JsonEncoder, configured from the audit.* settings), over a real S3 endpoint driven by the AWS SDK v2: one
 * strictly parsable JSON line per request, with its fields, written once the answer is complete (a streamed
 * GET's bytes out exact), requests refused at the signature or before routing included; never a secret, a
 * signature or a presigned URL's query. A tiny size limit rolls the file.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AuditLogIT {
    private static final Logger LOG = LoggerFactory.getLogger(AuditLogIT.class);
    private static final String BUCKET = "audited";
    private static final String WRONG_SECRET = "wrong/secret/for/the/audit/test/0123456789";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern SIGNATURE = Pattern.compile("Signature=([0-9a-f]{64})");
    private static final Pattern ROLLED = Pattern.compile("audit\\.\\d{4}-\\d\\d-\\d\\d\\.\\d+\\.json\\.gz");

    @TempDir
    Path dir;

    // The audit file is a try-with-resources scope whose variable is never read.
    @SuppressWarnings("try")
    @Test
    void eachRequestIsOneJsonLineWithItsFieldsAndNoSecret() throws Exception {
        Path file = dir.resolve("audit.json");
        long seed = System.nanoTime();
        LOG.info("seed {}", seed);
        byte[] data = new byte[300 * 1024 + 17];
        new Random(seed).nextBytes(data);
        byte[] part1 = new byte[5 << 20];
        new Random(seed + 1).nextBytes(part1);
        List<String> authorizations = new CopyOnWriteArrayList<>();
        Map<String, String> ids = new LinkedHashMap<>();
        String presignedQuery;
        Instant before = Instant.now();
        try (AuditLogFile audit = AuditLogFile.start(new AuditLogConfig(true, file, 100L << 20, 30, 1L << 30));
             S3ServerFixture s3 = S3ServerFixture.start();
             S3Client client = client(s3, S3ServerFixture.SECRET_KEY, authorizations);
             S3Client wrong = client(s3, WRONG_SECRET, authorizations)) {
            ids.put("create bucket", client.createBucket(b -> b.bucket(BUCKET)).responseMetadata().requestId());
            ids.put("put", client.putObject(p -> p.bucket(BUCKET).key("dir/object.bin"), RequestBody.fromBytes(data))
                    .responseMetadata().requestId());
            var got = client.getObject(g -> g.bucket(BUCKET).key("dir/object.bin"), ResponseTransformer.toBytes());
            assertThat(got.asByteArray()).isEqualTo(data);
            ids.put("get", got.response().responseMetadata().requestId());

            S3Exception denied = catchThrowableOfType(S3Exception.class,
                    () -> wrong.getObject(g -> g.bucket(BUCKET).key("dir/object.bin"), ResponseTransformer.toBytes()));
            assertThat(denied.statusCode()).isEqualTo(403);
            ids.put("denied", denied.requestId());

            PresignedGetObjectRequest presigned;
            try (S3Presigner presigner = s3.presigner()) {
                presigned = presigner.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                        .getObjectRequest(g -> g.bucket(BUCKET).key("dir/object.bin")));
            }
            presignedQuery = presigned.url().getQuery();
            HttpURLConnection connection = (HttpURLConnection) presigned.url().openConnection();
            try (InputStream in = connection.getInputStream()) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            ids.put("presigned", connection.getHeaderField("x-amz-request-id"));

            var created = client.createMultipartUpload(c -> c.bucket(BUCKET).key("multi.bin"));
            ids.put("create upload", created.responseMetadata().requestId());
            String uploadId = created.uploadId();
            var p1 = client.uploadPart(u -> u.bucket(BUCKET).key("multi.bin").uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(part1));
            ids.put("part 1", p1.responseMetadata().requestId());
            var p2 = client.uploadPart(u -> u.bucket(BUCKET).key("multi.bin").uploadId(uploadId).partNumber(2),
                    RequestBody.fromBytes(data));
            ids.put("part 2", p2.responseMetadata().requestId());
            ids.put("complete", client.completeMultipartUpload(c -> c.bucket(BUCKET).key("multi.bin")
                    .uploadId(uploadId).multipartUpload(m -> m.parts(
                            CompletedPart.builder().partNumber(1).eTag(p1.eTag()).build(),
                            CompletedPart.builder().partNumber(2).eTag(p2.eTag()).build())))
                    .responseMetadata().requestId());
            ids.put("malformed", sendMalformed(s3.port()));
            // A record is written once its answer is out: it may land just after the client has the answer.
            awaitRecords(file, ids.size());
        }
        Instant after = Instant.now();
        assertThat(ids.values()).doesNotContainNull().doesNotHaveDuplicates();

        String text = Files.readString(file, StandardCharsets.UTF_8);
        LOG.info("the audit log:\n{}", text);
        List<Map<String, String>> records = text.lines().map(AuditLogIT::parse).toList();
        assertThat(records).hasSize(ids.size());
        Map<String, Map<String, String>> byName = new HashMap<>();
        ids.forEach((name, id) -> {
            List<Map<String, String>> lines = records.stream().filter(r -> id.equals(r.get("requestId"))).toList();
            assertThat(lines).as("records of %s (%s)", name, id).hasSize(1);
            byName.put(name, lines.get(0));
        });
        for (Map<String, String> r : records) {
            Instant time = Instant.parse(r.get("time"));
            assertThat(r.get("time")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
            assertThat(time).isBetween(before.minusMillis(1), after);
            assertThat(r).containsEntry("remoteAddress", "127.0.0.1").containsKeys("durationMs", "bytesIn",
                    "bytesOut", "status", "operation");
        }
        assertThat(byName.get("create bucket")).containsEntry("operation", "CreateBucket")
                .containsEntry("bucket", BUCKET).containsEntry("status", "200").doesNotContainKey("key");
        assertThat(byName.get("put")).containsEntry("operation", "PutObject").containsEntry("bucket", BUCKET)
                .containsEntry("key", "dir/object.bin").containsEntry("accessKeyId", S3ServerFixture.ACCESS_KEY)
                .containsEntry("accountId", S3ServerFixture.OWNER).containsEntry("status", "200")
                .containsEntry("bytesOut", "0").doesNotContainKey("errorCode");
        assertThat(Long.parseLong(byName.get("put").get("bytesIn"))).isGreaterThanOrEqualTo(data.length);
        assertThat(byName.get("put").get("userAgent")).contains("aws-sdk-java");
        assertThat(byName.get("get")).containsEntry("operation", "GetObject").containsEntry("key", "dir/object.bin")
                .containsEntry("status", "200").containsEntry("bytesIn", "0")
                .containsEntry("bytesOut", Integer.toString(data.length))
                .containsEntry("accountId", S3ServerFixture.OWNER);
        assertThat(byName.get("denied")).containsEntry("operation", "GetObject").containsEntry("status", "403")
                .containsEntry("errorCode", "SignatureDoesNotMatch")
                .containsEntry("accessKeyId", S3ServerFixture.ACCESS_KEY).doesNotContainKey("accountId");
        assertThat(byName.get("presigned")).containsEntry("operation", "GetObject").containsEntry("status", "200")
                .containsEntry("accessKeyId", S3ServerFixture.ACCESS_KEY)
                .containsEntry("bytesOut", Integer.toString(data.length));
        assertThat(byName.get("create upload")).containsEntry("operation", "CreateMultipartUpload")
                .containsEntry("key", "multi.bin").containsEntry("status", "200");
        assertThat(byName.get("part 1")).containsEntry("operation", "UploadPart").containsEntry("status", "200");
        assertThat(Long.parseLong(byName.get("part 1").get("bytesIn"))).isGreaterThanOrEqualTo(part1.length);
        assertThat(byName.get("part 2")).containsEntry("operation", "UploadPart");
        assertThat(byName.get("complete")).containsEntry("operation", "CompleteMultipartUpload")
                .containsEntry("status", "200");
        assertThat(byName.get("malformed")).containsEntry("operation", "Unknown").containsEntry("status", "400")
                .containsEntry("errorCode", "BadRequest").doesNotContainKeys("bucket", "accessKeyId", "accountId");

        // What the clients sent that must never be written: the secrets, each signature, the presigned query;
        // searched in the file as written and as read (the encoder writes "/" as "\/").
        assertThat(authorizations).hasSizeGreaterThanOrEqualTo(ids.size() - 2);
        for (String written : List.of(text, text.replace("\\/", "/"))) {
            assertThat(written).doesNotContain(S3ServerFixture.SECRET_KEY).doesNotContain(WRONG_SECRET)
                    .doesNotContain("AWS4-HMAC-SHA256").doesNotContain("Signature=").doesNotContain("X-Amz-")
                    .doesNotContain(presignedQuery).doesNotContain(decoded(presignedQuery));
            for (String authorization : authorizations) {
                Matcher signature = SIGNATURE.matcher(authorization);
                assertThat(signature.find()).as(authorization).isTrue();
                assertThat(written).doesNotContain(signature.group(1));
            }
        }
    }

    @SuppressWarnings("try")
    @Test
    void aSmallSizeLimitRollsTheFileOver() throws Exception {
        Path file = dir.resolve("audit.json");
        long deadline = System.nanoTime() + WAIT.toNanos();
        int requests = 0;
        try (AuditLogFile audit = AuditLogFile.start(new AuditLogConfig(true, file, 1024, 30, 1L << 20));
             S3ServerFixture s3 = S3ServerFixture.start();
             S3Client client = client(s3, S3ServerFixture.SECRET_KEY, new CopyOnWriteArrayList<>())) {
            client.createBucket(b -> b.bucket(BUCKET));
            // Logback looks at the size at most every 60 ms (its checkIncrement): requests until a roll.
            while (rolled().isEmpty() && System.nanoTime() < deadline) {
                client.headBucket(b -> b.bucket(BUCKET));
                requests++;
            }
        }
        LOG.info("{} requests until the audit log rolled over", requests);
        List<Path> rolled = rolled();
        assertThat(rolled).isNotEmpty();
        // Closed, the policy has finished compressing: every rolled file is whole gzip of whole records.
        for (Path archive : rolled) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
                List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(parse(line)).containsKey("requestId"));
            }
        }
        assertThat(Files.readString(file).lines()).allSatisfy(line -> assertThat(parse(line)).containsKey("status"));
    }

    private List<Path> rolled() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> ROLLED.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
    }

    /** One audit line, parsed strictly as JSON: its record (the event's key/value pairs) as a map. */
    private static Map<String, String> parse(String line) {
        com.typesafe.config.Config json = ConfigFactory.parseString(line,
                ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON));
        assertThat(json.root().keySet()).as(line).containsExactlyInAnyOrder("timestamp", "kvpList");
        Map<String, String> record = new LinkedHashMap<>();
        for (ConfigObject pair : json.getObjectList("kvpList")) {
            pair.unwrapped().forEach((k, v) -> assertThat(record.put(k, String.valueOf(v))).as(k).isNull());
        }
        return record;
    }

    /** The presigned URL's query decoded, as a log line might carry it. */
    private static String decoded(String query) {
        return java.net.URLDecoder.decode(query, StandardCharsets.UTF_8);
    }

    /**
     * A request whose head no HTTP parser takes (a version with a word after it): refused before routing, with
     * a 400 BadRequest. Returns the answer's request id.
     */
    private static String sendMalformed(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write("GET /audited/x HTTP/1.1 extra\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400");
            Matcher id = Pattern.compile("(?im)^x-amz-request-id: *(\\S+)").matcher(answer);
            assertThat(id.find()).as(answer).isTrue();
            return id.group(1);
        }
    }

    private static void awaitRecords(Path file, int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (lines(file) < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static long lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file).lines().count() : 0;
    }

    /** A client of {@code s3}'s key that records the Authorization header of every request it sends. */
    private static S3Client client(S3ServerFixture s3, String secret, List<String> authorizations) {
        ExecutionInterceptor recorder = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                context.httpRequest().firstMatchingHeader("Authorization").ifPresent(authorizations::add);
            }
        };
        return S3Client.builder().endpointOverride(s3.endpoint()).region(Region.of(S3ServerConfig.defaults().region()))
                .forcePathStyle(true)
                .credentialsProvider(S3ServerFixture.credentials(S3ServerFixture.ACCESS_KEY, secret))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder).apiCallTimeout(Duration.ofSeconds(60)))
                .build();
    }
}
