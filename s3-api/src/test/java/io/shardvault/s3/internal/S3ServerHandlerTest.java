package io.shardvault.s3.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import io.shardvault.s3.S3ServerConfig;
import io.shardvault.s3.testing.InMemoryObjectStore;
import io.shardvault.s3.testing.MapCredentialStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The terminal handler in an EmbeddedChannel: answers come back on the channel, nothing is left over. */
@Timeout(30)
class S3ServerHandlerTest {

    private static FullHttpResponse exchange(EmbeddedChannel ch, String request) throws InterruptedException {
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        // The dispatcher runs on a worker thread and posts the answer back to the channel's loop.
        for (int i = 0; i < 500; i++) {
            ch.runPendingTasks();
            Object out = ch.readOutbound();
            if (out != null) {
                EmbeddedChannel decoder = new EmbeddedChannel(new io.netty.handler.codec.http.HttpClientCodec(),
                        new HttpObjectAggregator(1 << 20));
                decoder.writeOutbound(new io.netty.handler.codec.http.DefaultFullHttpRequest(
                        io.netty.handler.codec.http.HttpVersion.HTTP_1_1, io.netty.handler.codec.http.HttpMethod.GET,
                        "/"));
                ReferenceCountUtil.release(decoder.readOutbound());
                for (Object o = out; o != null; o = ch.readOutbound()) {
                    decoder.writeInbound(o);
                }
                FullHttpResponse response = decoder.readInbound();
                decoder.finishAndReleaseAll();
                return response;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no answer");
    }

    @Test
    void anUnsignedRequestGetsAnXmlErrorAndTheConnectionStaysUsable() throws Exception {
        S3ServerConfig config = S3ServerConfig.defaults().withBind("127.0.0.1", 0);
        try (S3Context context = S3Context.create(config, new InMemoryObjectStore(1 << 20, Clock.systemUTC()),
                new MapCredentialStore(), new SimpleMeterRegistry(), Clock.systemUTC())) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new S3ServerHandler(context));
            for (int i = 0; i < 2; i++) {
                FullHttpResponse r = exchange(ch, "GET /some-bucket/key HTTP/1.1\r\nHost: localhost\r\n\r\n");
                try {
                    // Unsigned is anonymous (issue #17): a bucket that does not exist is NoSuchBucket, as on S3.
                    assertThat(r.status().code()).isEqualTo(404);
                    assertThat(r.headers().get("x-amz-request-id")).isNotBlank();
                    String body = r.content().toString(StandardCharsets.UTF_8);
                    assertThat(body).contains("<Code>NoSuchBucket</Code>").contains("<Resource>/some-bucket/key</Resource>")
                            .contains("<RequestId>" + r.headers().get("x-amz-request-id") + "</RequestId>");
                } finally {
                    r.release();
                }
                assertThat(ch.isActive()).isTrue();
            }
            FullHttpResponse bad = exchange(ch, "GET /%zz HTTP/1.1\r\nHost: localhost\r\n\r\n");
            try {
                assertThat(bad.status().code()).isEqualTo(400);
                assertThat(bad.content().toString(StandardCharsets.UTF_8)).contains("<Code>InvalidURI</Code>");
            } finally {
                bad.release();
            }
            ch.runPendingTasks();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }
}
