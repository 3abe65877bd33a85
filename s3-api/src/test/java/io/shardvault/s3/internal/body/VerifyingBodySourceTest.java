package io.shardvault.s3.internal.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.s3.internal.S3Error;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Plain bodies without a declared length (chunked transfer coding): counted at the end, bounded while they stream. */
@Timeout(30)
class VerifyingBodySourceTest {

    /** A raw body of the given pieces. */
    private static RawBody raw(byte[]... pieces) {
        ArrayDeque<byte[]> left = new ArrayDeque<>(List.of(pieces));
        return new RawBody() {
            @Override
            public CompletableFuture<ByteBuf> next() {
                byte[] p = left.poll();
                return CompletableFuture.completedFuture(p == null ? null : Unpooled.wrappedBuffer(p));
            }

            @Override
            public void discard() {
                left.clear();
            }
        };
    }

    private static VerifyingBodySource unknownLength(RawBody raw, long max) {
        return new VerifyingBodySource(raw, null,
                new VerifyingBodySource.Expectations(-1, max, null, null, null, false, null, false));
    }

    private static long drain(VerifyingBodySource body) {
        long n = 0;
        for (ByteBuf b; (b = body.read().join()) != null; ) {
            n += b.readableBytes();
            b.release();
        }
        return n;
    }

    @Test
    void anUnknownLengthIsTheCountAtTheEnd() throws Exception {
        byte[] a = new byte[1000];
        byte[] b = new byte[24];
        b[3] = 7;
        VerifyingBodySource body = unknownLength(raw(a, b), 1024);
        assertThat(body.contentLength()).isEqualTo(-1);
        assertThat(drain(body)).isEqualTo(1024);
        assertThat(body.completed()).isTrue();
        assertThat(body.digests().size()).isEqualTo(1024);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        md5.update(a);
        md5.update(b);
        assertThat(body.digests().md5Hex()).isEqualTo(HexFormat.of().formatHex(md5.digest()));
    }

    @Test
    void anUnknownLengthBeyondTheMaximumIsEntityTooLarge() {
        VerifyingBodySource body = unknownLength(raw(new byte[1000], new byte[25]), 1024);
        assertThatThrownBy(() -> drain(body)).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(S3Error.class, e -> assertThat(e.code()).isEqualTo("EntityTooLarge"));
        assertThat(body.completed()).isFalse();
    }
}
