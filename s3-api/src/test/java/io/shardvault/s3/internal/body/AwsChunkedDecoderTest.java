package io.shardvault.s3.internal.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.s3.internal.S3Error;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The decoder fed in every split, including one byte at a time; framing errors are IncompleteBody. */
@Timeout(30)
class AwsChunkedDecoderTest {
    private static final String BODY = "5\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n";

    private static byte[] decode(String body, int step) {
        AwsChunkedDecoder d = new AwsChunkedDecoder(null, true);
        byte[] in = body.getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int off = 0; off < in.length; off += step) {
            d.feed(Unpooled.copiedBuffer(in, off, Math.min(step, in.length - off)));
            for (ByteBuf b; (b = d.poll()) != null; ) {
                byte[] chunk = new byte[b.readableBytes()];
                b.readBytes(chunk);
                b.release();
                out.write(chunk, 0, chunk.length);
            }
        }
        d.finish();
        assertThat(d.trailers()).containsEntry("x-amz-checksum-crc32", "AAAAAA==");
        return out.toByteArray();
    }

    @Test
    void decodesInAnySplit() {
        for (int step = 1; step <= BODY.length(); step++) {
            assertThat(new String(decode(BODY, step), StandardCharsets.US_ASCII)).as("step %d", step)
                    .isEqualTo("hello world");
        }
    }

    @Test
    void truncatedBodiesFailAtTheEnd() {
        for (int cut = 0; cut < BODY.length() - 1; cut++) {
            String truncated = BODY.substring(0, cut);
            assertThatThrownBy(() -> decode(truncated, 3)).as("cut %d", cut).isInstanceOf(S3Error.class)
                    .extracting(e -> ((S3Error) e).code()).isEqualTo("IncompleteBody");
        }
    }

    @Test
    void badFramingIsRefused() {
        for (String bad : new String[] {"zz\r\nhello\r\n0\r\n\r\n", "5\r\nhello!\r\n0\r\n\r\n", "5\nhello\r\n",
            "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:A\r\n\r\nextra"}) {
            assertThatThrownBy(() -> decode(bad, 4)).as(bad).isInstanceOf(S3Error.class);
        }
    }
}
