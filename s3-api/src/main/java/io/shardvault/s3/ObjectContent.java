package io.shardvault.s3;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/**
 * The bytes of a GetObject answer, pulled by the server only as fast as the client's socket drains.
 * Not thread-safe: the server keeps at most one {@link #read()} outstanding.
 */
public interface ObjectContent extends AutoCloseable {
    /**
     * Completes with the next chunk (the server takes ownership and releases it), or {@code null}
     * after exactly the requested number of bytes. A failure after the headers were sent can only be
     * reported by closing the connection, so the client sees a short body.
     */
    CompletableFuture<ByteBuf> read();

    /** Releases what the content holds; called once, at the end or when the client went away. */
    @Override
    void close();
}
