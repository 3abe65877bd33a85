package io.shardvault.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.it.s3.S3Cluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * No secret in any log line (issue #21, item 4): a real cluster (20 pods, 2 stash servers, a coordinator
 * with its Ratis catalog) runs with shardvault's, Ratis's and Netty's loggers at DEBUG while keys are
 * created and S3 requests arrive signed with SigV4 (headers and presigned URLs, right and wrong); then
 * every line logged in the JVM is searched for each secret key and each signature. A wrong-secret
 * presigned URL is sent at the same second as a right one is made, so the signature the server expects
 * for it is the right one's: a server that logged its expected signature would show it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NoSecretInLogsIT {
    private static final Logger LOG = LoggerFactory.getLogger(NoSecretInLogsIT.class);
    private static final Pattern HEADER_SIGNATURE = Pattern.compile("Signature=([0-9a-f]{64})");
    private static final Pattern QUERY_SIGNATURE = Pattern.compile("X-Amz-Signature=([0-9a-f]{64})");
    private static final Pattern QUERY_DATE = Pattern.compile("X-Amz-Date=([0-9TZ]+)");
    private static final String WRONG_SECRET = "wrong/secret/key+0123456789abcdefghijklm";

    @TempDir
    Path dir;

    private final Set<String> signatures = ConcurrentHashMap.newKeySet();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void neitherASecretKeyNorASignatureIsLoggedAtDebug() throws Exception {
        Set<String> secrets = new LinkedHashSet<>(List.of(S3Cluster.SECRET_KEY));
        List<String> lines;
        try (DebugLogCapture capture = new DebugLogCapture("io.shardvault", "org.apache.ratis", "io.netty")) {
            try (S3Cluster cluster = S3Cluster.start(dir)) {
                secrets.add(cluster.otherOwnerKey().orElseThrow()[1]);
                secrets.add(cluster.disabledKey().orElseThrow()[1]);
                AccessKey created = cluster.catalog().createAccessKey(S3Cluster.OWNER, false).get(60, TimeUnit.SECONDS);
                secrets.add(created.secretKey());
                exercise(cluster, created);
            }
            lines = capture.lines();
        }
        // The levels were in force: the capture holds DEBUG lines of shardvault and of Ratis.
        assertThat(lines).anyMatch(l -> l.startsWith("DEBUG io.shardvault"));
        assertThat(lines).anyMatch(l -> l.startsWith("DEBUG org.apache.ratis"));
        assertThat(signatures).hasSizeGreaterThan(10);
        LOG.info("searched {} lines for {} secret keys and {} signatures", lines.size(), secrets.size(),
                signatures.size());
        for (String secret : secrets) {
            assertThat(lines.stream().filter(l -> l.contains(secret))).as("lines quoting a secret key").isEmpty();
        }
        for (String signature : signatures) {
            assertThat(lines.stream().filter(l -> l.contains(signature))).as("lines quoting a signature").isEmpty();
        }
    }

    private void exercise(S3Cluster cluster, AccessKey created) throws Exception {
        URI endpoint = cluster.endpoint();
        try (S3Client s3 = client(endpoint, S3Cluster.ACCESS_KEY, S3Cluster.SECRET_KEY)) {
            s3.createBucket(b -> b.bucket("logs"));
            s3.putObject(b -> b.bucket("logs").key("a"), RequestBody.fromString("some bytes"));
            assertThat(s3.getObjectAsBytes(b -> b.bucket("logs").key("a")).asUtf8String()).isEqualTo("some bytes");
            s3.headObject(b -> b.bucket("logs").key("a"));
            s3.listObjectsV2(b -> b.bucket("logs"));
            String upload = s3.createMultipartUpload(b -> b.bucket("logs").key("mp")).uploadId();
            String etag = s3.uploadPart(b -> b.bucket("logs").key("mp").uploadId(upload).partNumber(1),
                    RequestBody.fromString("one part")).eTag();
            s3.completeMultipartUpload(b -> b.bucket("logs").key("mp").uploadId(upload)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
            s3.copyObject(b -> b.sourceBucket("logs").sourceKey("a").destinationBucket("logs").destinationKey("b"));
            s3.deleteObject(b -> b.bucket("logs").key("b"));
        }
        try (S3Client other = client(endpoint, created.accessKeyId(), created.secretKey())) {
            other.listBuckets();
            other.getObjectAsBytes(b -> b.bucket("logs").key("a"));
        }
        for (String[] refused : List.of(new String[] {S3Cluster.ACCESS_KEY, WRONG_SECRET},
                cluster.disabledKey().orElseThrow(), cluster.otherOwnerKey().orElseThrow())) {
            try (S3Client s3 = client(endpoint, refused[0], refused[1])) {
                assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket("logs").key("a")))
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            }
        }
        try (S3Presigner presigner = cluster.presigner()) {
            URI get = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket("logs").key("a"))).url().toURI();
            assertThat(send(HttpRequest.newBuilder(get).build())).isEqualTo(200);
            URI put = presigner.presignPutObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(p -> p.bucket("logs").key("presigned"))).url().toURI();
            assertThat(send(HttpRequest.newBuilder(put).PUT(HttpRequest.BodyPublishers.ofString("up")).build()))
                    .isEqualTo(200);
            sendWrongAtTheSameSecondAsRight(presigner, endpoint);
        }
    }

    /**
     * Presigns one GET with the right secret (never sent) and with a wrong one, at the same X-Amz-Date, and
     * sends the wrong one: the server computes the right one's signature to compare with.
     */
    private void sendWrongAtTheSameSecondAsRight(S3Presigner right, URI endpoint) throws Exception {
        try (S3Presigner wrong = S3Cluster.presigner(endpoint, S3Cluster.ACCESS_KEY, WRONG_SECRET)) {
            for (int attempt = 0; attempt < 10; attempt++) {
                String rightUrl = right.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                        .getObjectRequest(g -> g.bucket("logs").key("a"))).url().toString();
                URI wrongUrl = wrong.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
                        .getObjectRequest(g -> g.bucket("logs").key("a"))).url().toURI();
                if (group(QUERY_DATE, rightUrl).equals(group(QUERY_DATE, wrongUrl.toString()))) {
                    signatures.add(group(QUERY_SIGNATURE, rightUrl));
                    assertThat(send(HttpRequest.newBuilder(wrongUrl).build())).isEqualTo(403);
                    return;
                }
            }
            throw new AssertionError("ten pairs of presigned URLs straddled a second boundary");
        }
    }

    private int send(HttpRequest request) throws Exception {
        signatures.add(group(QUERY_SIGNATURE, request.uri().toString()));
        HttpRequest bounded = HttpRequest.newBuilder(request, (name, value) -> true)
                .timeout(Duration.ofSeconds(30)).build();
        return http.send(bounded, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private S3Client client(URI endpoint, String key, String secret) {
        return S3Cluster.syncClient(endpoint, key, secret, Duration.ofSeconds(60), new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                context.httpRequest().firstMatchingHeader("Authorization")
                        .ifPresent(a -> signatures.add(group(HEADER_SIGNATURE, a)));
            }
        });
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no " + pattern + " in " + text);
        }
        return m.group(1);
    }
}
