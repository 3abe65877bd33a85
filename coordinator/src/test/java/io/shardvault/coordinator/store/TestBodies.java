package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.s3.BodyDigests;
import io.shardvault.s3.BodySource;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** Request bodies for store tests: the bytes in 64 KiB pieces, MD5 as the S3 server computes it. */
final class TestBodies {
    private TestBodies() {
    }

    static class Body implements BodySource {
        private final byte[] data;
        private int at;
        final AtomicBoolean discarded = new AtomicBoolean();

        Body(byte[] data) {
            this.data = data;
        }

        @Override
        public long contentLength() {
            return data.length;
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
        return new Body(data);
    }

    static String md5(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
