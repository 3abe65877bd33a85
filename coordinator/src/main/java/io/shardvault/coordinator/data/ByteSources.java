package io.shardvault.coordinator.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** {@link ByteSource}s over arrays and blocking streams. Stateless. */
public final class ByteSources {
    /** How much a stream source reads per {@link ByteSource#read()}. */
    public static final int STREAM_READ_BYTES = 256 * 1024;

    private ByteSources() {
    }

    /** The bytes of {@code data}, in one piece; the array must not change while the source is read. */
    public static ByteSource of(byte[] data) {
        Objects.requireNonNull(data, "data");
        return new ByteSource() {
            private boolean done;

            @Override
            public long length() {
                return data.length;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (done || data.length == 0) {
                    return CompletableFuture.completedFuture(null);
                }
                done = true;
                return CompletableFuture.completedFuture(Unpooled.wrappedBuffer(data));
            }
        };
    }

    /**
     * Exactly {@code length} bytes of {@code in}, read on {@code executor} (the stream blocks); a stream
     * that ends early fails the source with an {@link EOFException}. The caller closes the stream.
     */
    public static ByteSource of(InputStream in, long length, Executor executor) {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(executor, "executor");
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0: " + length);
        }
        return new ByteSource() {
            private long remaining = length;

            @Override
            public long length() {
                return length;
            }

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (remaining == 0) {
                    return CompletableFuture.completedFuture(null);
                }
                return CompletableFuture.supplyAsync(() -> {
                    int want = (int) Math.min(STREAM_READ_BYTES, remaining);
                    byte[] buf = new byte[want];
                    try {
                        int got = in.readNBytes(buf, 0, want);
                        if (got < want) {
                            throw new EOFException("stream ended " + (remaining - got) + " bytes short of " + length);
                        }
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                    remaining -= want;
                    return Unpooled.wrappedBuffer(buf);
                }, executor);
            }
        };
    }
}
