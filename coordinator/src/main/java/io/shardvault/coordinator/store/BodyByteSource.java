package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.s3.BodySource;

import java.util.concurrent.CompletableFuture;

/** An S3 request body as the write path's {@link ByteSource}: the same pull contract, unchanged. */
final class BodyByteSource implements ByteSource {
    private final BodySource body;

    BodyByteSource(BodySource body) {
        this.body = body;
    }

    @Override
    public long length() {
        return body.contentLength();
    }

    @Override
    public CompletableFuture<ByteBuf> read() {
        return body.read();
    }
}
