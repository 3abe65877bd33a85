package io.shardvault.s3.sosapi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.s3.ObjectContent;
import io.shardvault.s3.ObjectInfo;
import io.shardvault.s3.StoredObject;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One rendered SOSAPI document, served as an object: its metadata and its bytes, held in memory (a
 * few hundred bytes). Immutable; {@link #open} may be called any number of times.
 */
public final class VirtualObject implements StoredObject {
    private final ObjectInfo info;
    private final byte[] content;

    VirtualObject(ObjectInfo info, byte[] content) {
        this.info = Objects.requireNonNull(info, "info");
        this.content = content.clone();
        if (info.size() != content.length) {
            throw new IllegalArgumentException("size " + info.size() + " != content length " + content.length);
        }
    }

    @Override
    public ObjectInfo info() {
        return info;
    }

    /** A copy of the document's bytes. */
    public byte[] content() {
        return content.clone();
    }

    @Override
    public ObjectContent open(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > content.length) {
            throw new IllegalArgumentException("range [" + offset + ", +" + length + ") outside " + content.length);
        }
        return new ObjectContent() {
            private boolean sent;

            @Override
            public CompletableFuture<ByteBuf> read() {
                if (sent || length == 0) {
                    return CompletableFuture.completedFuture(null);
                }
                sent = true;
                return CompletableFuture.completedFuture(
                        Unpooled.copiedBuffer(content, (int) offset, (int) length));
            }

            @Override
            public void close() {
                // Nothing is held: the bytes live on the heap with this object.
            }
        };
    }
}
