package io.shardvault.s3.internal.body;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;

/** The bytes of a request body as they come off the connection, pulled with demand. */
public interface RawBody {
    /** The next buffer (owned by the caller), or {@code null} at the end of the body. */
    CompletableFuture<ByteBuf> next();

    /** No more will be read. */
    void discard();
}
