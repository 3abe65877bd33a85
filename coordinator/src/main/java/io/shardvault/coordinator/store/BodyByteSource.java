package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.shardvault.coordinator.data.ByteSource;
import io.shardvault.s3.BodySource;

import java.util.concurrent.CompletableFuture;

/**
 * An S3 request body as the write path's {@link ByteSource}: the same pull contract, unchanged, plus
 * {@link #abort}, which fails every later read (the writer then fails and deletes what it wrote).
 * {@code abort} may be called from any thread.
 */
final class BodyByteSource implements ByteSource {
    private final BodySource body;
    private volatile Throwable aborted;

    BodyByteSource(BodySource body) {
        this.body = body;
    }

    @Override
    public long length() {
        return body.contentLength();
    }

    @Override
    public CompletableFuture<ByteBuf> read() {
        Throwable why = aborted;
        return why != null ? CompletableFuture.failedFuture(why) : body.read();
    }

    /** Fails the reads from now on with {@code why} (the first reason is kept). */
    void abort(Throwable why) {
        if (aborted == null) {
            aborted = why;
        }
    }
}
