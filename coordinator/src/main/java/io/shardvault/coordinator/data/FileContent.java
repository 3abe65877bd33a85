package io.shardvault.coordinator.data;


import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardvaultException;
import java.util.concurrent.CompletableFuture;

/**
 * A byte range of a stored file, produced stripe by stripe with a bounded read-ahead: memory holds
 * a few stripes whatever the range's length.
 *
 * <p>Not thread-safe: at most one {@link #read()} outstanding.
 */
public interface FileContent extends AutoCloseable {

    /** The number of bytes the content produces in all. */
    long length();

    /**
     * The next bytes (the caller owns and releases them), or {@code null} after exactly
     * {@link #length()} bytes. Fails with a {@link ShardvaultException} when a stripe cannot be read
     * or rebuilt.
     */
    CompletableFuture<ByteBuf> read();

    /** Stops reading ahead and drops what was read ahead; idempotent. */
    @Override
    void close();
}
