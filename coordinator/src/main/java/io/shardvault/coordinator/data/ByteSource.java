package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.CompletableFuture;

/**
 * The bytes of a file to write, pulled chunk by chunk: the writer asks for more only when it has
 * room, so a slow vault slows the producer instead of filling memory. {@link ByteSources} adapts
 * arrays and streams.
 *
 * <p>Not thread-safe: at most one {@link #read()} outstanding.
 */
public interface ByteSource {

    /**
     * The exact number of bytes the source will produce, or -1 when it is known only at the end (an
     * HTTP body sent with chunked transfer coding): the file is then as long as what was produced.
     */
    long length();

    /**
     * The next bytes (the caller owns and releases them), or {@code null} once {@link #length()}
     * bytes (or, for an unknown length, all of them) were produced and the source vouches for them (a checksum trailer matched, say). A
     * failure fails the write.
     */
    CompletableFuture<ByteBuf> read();
}
