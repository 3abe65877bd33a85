package io.shardvault.s3.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.s3.Caller;
import io.shardvault.s3.Credential;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.ObjectRange;
import io.shardvault.s3.ObjectStoreException;
import io.shardvault.s3.S3Server;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.StoredObject;
import io.shardvault.s3.testing.DelegatingObjectStore;
import io.shardvault.s3.testing.InMemoryObjectStore;
import io.shardvault.s3.testing.MapCredentialStore;
import io.shardvault.s3.testing.S3ServerFixture;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A GET whose content cannot be read (a stripe with too few shards, a store that is down): before the first
 * byte the client gets the error's status and S3 error code, never a connection closed unanswered; after it,
 * a body short of its Content-Length, never a complete-looking one. And a GET in flight when the server
 * closes (a rolling restart): it gets its whole body before its connection closes.
 */
@Timeout(60)
class UnreadableObjectTest {
    private static final String BUCKET = "unreadable";
    private static final int SIZE = 300_000;

    @Test
    void aReadFailingBeforeTheFirstByteIsAnsweredWithItsError() throws Exception {
        try (Server s = new Server(0); S3Client s3 = s.client()) {
            assertThatThrownBy(() -> s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("k")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(503);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
                    });
            // The connection is still good for the next request.
            assertThat(s3.headObject(h -> h.bucket(BUCKET).key("k")).contentLength()).isEqualTo(SIZE);
            assertThat(s.reads.get()).isEqualTo(1);
        }
    }

    @Test
    void aReadFailingAfterTheFirstBytesEndsTheBodyShort() throws Exception {
        try (Server s = new Server(2); S3Presigner presigner = s.presigner()) {
            URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("k"))).url();
            // A raw socket, as clients differ in what they make of a short body (HttpURLConnection returns it
            // as if whole): what the server must do is announce the whole length and close short of it.
            try (Socket socket = new Socket("127.0.0.1", url.getPort())) {
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(("GET " + url.getFile() + " HTTP/1.1\r\nHost: " + url.getHost() + ":"
                        + url.getPort() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                byte[] all = socket.getInputStream().readAllBytes();
                String text = new String(all, StandardCharsets.ISO_8859_1);
                int headEnd = text.indexOf("\r\n\r\n") + 4;
                assertThat(text).startsWith("HTTP/1.1 200 ").contains("content-length: " + SIZE);
                assertThat(all.length - headEnd).as("body bytes before the close").isEqualTo(2 * 65_536);
            }
            assertThat(s.reads.get()).isEqualTo(3);
        }
    }

    @Test
    void aGetInFlightWhenTheServerClosesGetsItsWholeBody() throws Exception {
        Server s = new Server(Integer.MAX_VALUE, Duration.ofMillis(150));
        try (S3Presigner presigner = s.presigner();
             Socket idle = new Socket("127.0.0.1", s.server.localAddress().getPort())) {
            URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("k"))).url();
            idle.setSoTimeout(20_000);
            try (Socket socket = new Socket("127.0.0.1", url.getPort())) {
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(("GET " + url.getFile() + " HTTP/1.1\r\nHost: " + url.getHost() + ":"
                        + url.getPort() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                InputStream in = socket.getInputStream();
                // The head is out with the first read; four more reads of 64 KiB, 150 ms apart, are to come.
                String head = readHead(in);
                assertThat(head).startsWith("HTTP/1.1 200 ").contains("content-length: " + SIZE);
                long start = System.nanoTime();
                CompletableFuture<Void> closing = CompletableFuture.runAsync(s::close);
                byte[] body = in.readAllBytes();
                assertThat(body.length).as("body bytes before the connection closed").isEqualTo(SIZE);
                closing.get(20, TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
                assertThat(s.reads.get()).isEqualTo(SIZE / 65_536 + 2);
            }
            // A connection with no request in flight is closed at once, not kept to the end.
            assertThat(idle.getInputStream().read()).isEqualTo(-1);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            assertThat(b).as("a response head").isNotNegative();
            head.append((char) b);
        }
        return head.toString();
    }

    /**
     * An S3 server over a store whose contents fail with UNAVAILABLE after {@code goodReads} reads, each read
     * answered {@code readDelay} late.
     */
    private static final class Server implements AutoCloseable {
        final AtomicInteger reads = new AtomicInteger();
        final S3Server server;

        Server(int goodReads) throws Exception {
            this(goodReads, Duration.ZERO);
        }

        Server(int goodReads, Duration readDelay) throws Exception {
            InMemoryObjectStore memory = new InMemoryObjectStore(1 << 24, Clock.systemUTC());
            DelegatingObjectStore failing = new DelegatingObjectStore(memory) {
                @Override
                public CompletableFuture<StoredObject> getObject(Caller caller, String bucket, String key,
                                                                 String versionId) {
                    return super.getObject(caller, bucket, key, versionId).thenApply(stored -> new StoredObject() {
                        @Override
                        public ObjectInfo info() {
                            return stored.info();
                        }

                        @Override
                        public ObjectContent open(long offset, long length) {
                            return new FailingContent(stored.open(offset, length), goodReads, readDelay);
                        }

                        @Override
                        public Optional<ObjectRange> part(int partNumber) {
                            return stored.part(partNumber);
                        }
                    });
                }
            };
            MapCredentialStore credentials = new MapCredentialStore().add(new Credential(S3ServerFixture.ACCESS_KEY,
                    S3ServerFixture.SECRET_KEY, true, S3ServerFixture.OWNER));
            server = S3Server.start(S3ServerConfig.defaults().withBind("127.0.0.1", 0), failing, credentials,
                    new SimpleMeterRegistry());
            try (S3Client s3 = client()) {
                s3.createBucket(c -> c.bucket(BUCKET));
                s3.putObject(p -> p.bucket(BUCKET).key("k"), RequestBody.fromBytes(new byte[SIZE]));
            }
        }

        S3Client client() {
            return S3Client.builder()
                    .endpointOverride(URI.create("http://127.0.0.1:" + server.localAddress().getPort()))
                    .region(Region.US_EAST_1).forcePathStyle(true)
                    .credentialsProvider(S3ServerFixture.credentials(S3ServerFixture.ACCESS_KEY,
                            S3ServerFixture.SECRET_KEY))
                    .httpClient(UrlConnectionHttpClient.create())
                    .overrideConfiguration(c -> c.retryStrategy(DefaultRetryStrategy.doNotRetry())).build();
        }

        S3Presigner presigner() {
            return S3Presigner.builder()
                    .endpointOverride(URI.create("http://127.0.0.1:" + server.localAddress().getPort()))
                    .region(Region.US_EAST_1)
                    .credentialsProvider(S3ServerFixture.credentials(S3ServerFixture.ACCESS_KEY,
                            S3ServerFixture.SECRET_KEY))
                    .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                    .build();
        }

        @Override
        public void close() {
            server.close();
        }

        private final class FailingContent implements ObjectContent {
            private final ObjectContent delegate;
            private final int goodReads;
            private final Duration readDelay;

            FailingContent(ObjectContent delegate, int goodReads, Duration readDelay) {
                this.delegate = delegate;
                this.goodReads = goodReads;
                this.readDelay = readDelay;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (reads.getAndIncrement() >= goodReads) {
                    return CompletableFuture.failedFuture(new ObjectStoreException(ErrorCode.UNAVAILABLE,
                            "file 1/7: 15 of 20 shards readable, 16 needed"));
                }
                if (readDelay.isZero()) {
                    return delegate.read();
                }
                return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(
                        readDelay.toMillis(), TimeUnit.MILLISECONDS)).thenCompose(ignored -> delegate.read());
            }

            @Override
            public void close() {
                delegate.close();
            }
        }
    }
}
