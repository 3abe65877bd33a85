package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.s3.BodyDigests;
import io.shardvault.s3.BodySource;
import io.shardvault.s3.ObjectContent;

import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Request bodies for store tests: the bytes in 64 KiB pieces, MD5 as the S3 server computes it; and
 * the other way, an object's content read back into an array.
 */
final class TestBodies {
    private TestBodies() {
    }

    static class Body implements BodySource {
        private final byte[] data;
        private final long declared;
        private int at;
        final AtomicBoolean discarded = new AtomicBoolean();

        Body(byte[] data) {
            this(data, data.length);
        }

        Body(byte[] data, long declared) {
            this.data = data;
            this.declared = declared;
        }

        @Override
        public long contentLength() {
            return declared;
        }

        @Override
        public CompletableFuture<ByteBuf> read() {
            if (at == data.length) {
                return CompletableFuture.completedFuture(null);
            }
            int n = Math.min(64 * 1024, data.length - at);
            ByteBuf buf = Unpooled.copiedBuffer(data, at, n);
            at += n;
            return CompletableFuture.completedFuture(buf);
        }

        @Override
        public BodyDigests digests() {
            return new BodyDigests(md5(data), data.length, null);
        }

        @Override
        public void discard() {
            discarded.set(true);
        }
    }

    static Body of(byte[] data) {
        return new Body(data, data.length);
    }

    /** A body that declares no length (-1), as one sent with {@code Transfer-Encoding: chunked}. */
    static Body ofUnknownLength(byte[] data) {
        return new Body(data, -1);
    }

    /** Every byte of {@code content}, in order (at most 100,000 reads, so a broken source cannot hang a test). */
    static byte[] readAll(ObjectContent content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 100_000; i++) {
            ByteBuf b = content.read().join();
            if (b == null) {
                return out.toByteArray();
            }
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        throw new AssertionError("content still not finished after 100,000 reads");
    }

    static String md5(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
