package io.shardvault.s3.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The async client (Netty) over plain HTTP and HTTPS, and the sync client over HTTPS, against an
 * {@link S3Target} (s3-api's {@code SdkAsyncClientTest}: the in-memory store; it/'s {@code S3AsyncApiIT}: a real
 * cluster): concurrent puts and gets, a multipart upload with CRC32 part checksums, a delete. With their default
 * checksum behaviour they send STREAMING-UNSIGNED-PAYLOAD-TRAILER bodies with a trailing checksum. Each test
 * starts its own target; the seed of the random data is logged.
 */
@Timeout(300)
public abstract class SdkAsyncSuite {
    private static final Logger LOG = LoggerFactory.getLogger(SdkAsyncSuite.class);
    private static final long SEED = System.nanoTime();
    private final Random random = new Random(SEED);

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Starts an endpoint over plain HTTP or, with {@code tls}, over HTTPS with a self-signed certificate. */
    protected abstract S3Target startTarget(boolean tls) throws Exception;

    @Test
    void asyncClientPutsGetsAndRunsMultipartConcurrently() throws Exception {
        LOG.info("seed {}", SEED);
        try (S3Target f = startTarget(false); S3AsyncClient s3 = f.asyncClient()) {
            exercise(s3);
            // Over plain HTTP too, the async client sends unsigned aws-chunked bodies with a trailing CRC32.
            assertThat(f.registry().counter("shardvault.s3.payloads", "type", "STREAMING-UNSIGNED-PAYLOAD-TRAILER").count())
                    .isPositive();
            assertThat(f.registry().find("shardvault.s3.requests").tags("operation", "PutObject", "status", "2xx").timer()
                    .count()).isEqualTo(8);
            assertThat(f.registry().find("shardvault.s3.requests").tags("operation", "GetObject", "status", "4xx").timer()
                    .count()).isEqualTo(1);
            assertThat(f.registry().counter("shardvault.s3.bytes.in").count()).isGreaterThan(5 << 20);
        }
    }

    @Test
    void overTlsBothClientsSendUnsignedTrailers() throws Exception {
        try (S3Target f = startTarget(true);
             S3AsyncClient async = f.asyncClient(); S3Client sync = f.syncClient()) {
            exercise(async);
            sync.createBucket(b -> b.bucket("tls-sync"));
            byte[] data = bytes(1 << 20);
            var put = sync.putObject(b -> b.bucket("tls-sync").key("k").checksumAlgorithm(ChecksumAlgorithm.SHA256),
                    RequestBody.fromBytes(data));
            var got = sync.getObjectAsBytes(b -> b.bucket("tls-sync").key("k").checksumMode(ChecksumMode.ENABLED));
            assertThat(got.asByteArray()).isEqualTo(data);
            assertThat(got.response().checksumSHA256()).isEqualTo(put.checksumSHA256());
            assertThat(f.registry().counter("shardvault.s3.payloads", "type", "STREAMING-UNSIGNED-PAYLOAD-TRAILER").count())
                    .isPositive();
        }
    }

    private void exercise(S3AsyncClient s3) throws Exception {
        s3.createBucket(b -> b.bucket("async")).join();
        List<CompletableFuture<?>> puts = new ArrayList<>();
        List<byte[]> datas = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            byte[] data = bytes(100_000 + i * 50_000);
            datas.add(data);
            int n = i;
            puts.add(s3.putObject(b -> b.bucket("async").key("obj" + n), AsyncRequestBody.fromBytes(data)));
        }
        CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
        for (int i = 0; i < 8; i++) {
            int n = i;
            var got = s3.getObject(b -> b.bucket("async").key("obj" + n).checksumMode(ChecksumMode.ENABLED),
                    AsyncResponseTransformer.toBytes()).join();
            assertThat(got.asByteArray()).isEqualTo(datas.get(i));
        }
        String id = s3.createMultipartUpload(b -> b.bucket("async").key("mp")
                .checksumAlgorithm(ChecksumAlgorithm.CRC32)).join().uploadId();
        byte[] p1 = bytes(5 << 20);
        byte[] p2 = bytes(1000);
        var u1 = s3.uploadPart(b -> b.bucket("async").key("mp").uploadId(id).partNumber(1)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32), AsyncRequestBody.fromBytes(p1));
        var u2 = s3.uploadPart(b -> b.bucket("async").key("mp").uploadId(id).partNumber(2)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32), AsyncRequestBody.fromBytes(p2));
        List<CompletedPart> parts = List.of(
                CompletedPart.builder().partNumber(1).eTag(u1.join().eTag()).checksumCRC32(u1.join().checksumCRC32())
                        .build(),
                CompletedPart.builder().partNumber(2).eTag(u2.join().eTag()).checksumCRC32(u2.join().checksumCRC32())
                        .build());
        s3.completeMultipartUpload(b -> b.bucket("async").key("mp").uploadId(id).multipartUpload(m -> m.parts(parts)))
                .join();
        byte[] got = s3.getObject(b -> b.bucket("async").key("mp"), AsyncResponseTransformer.toBytes()).join()
                .asByteArray();
        MessageDigest md = MessageDigest.getInstance("MD5");
        md.update(p1);
        md.update(p2);
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(got)))
                .isEqualTo(HexFormat.of().formatHex(md.digest()));
        s3.deleteObject(b -> b.bucket("async").key("obj0")).join();
        assertThatThrownBy(() -> s3.getObject(b -> b.bucket("async").key("obj0"), AsyncResponseTransformer.toBytes())
                .join()).isInstanceOf(CompletionException.class).hasCauseInstanceOf(NoSuchKeyException.class);
    }
}
