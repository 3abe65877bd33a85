package io.shardvault.coordinator.store;

import io.netty.buffer.ByteBuf;
import io.shardvault.coordinator.catalog.FilePart;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.FileContent;
import io.shardvault.s3.ObjectContent;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A byte range of an object made of one or more files (the parts of a multipart upload), read part
 * after part; only the part being read holds read-ahead buffers.
 *
 * <p>Not thread-safe, as {@link ObjectContent} allows: one read at a time.
 */
final class PartsContent implements ObjectContent {
    private final DataPath data;
    private final List<FilePart> parts;
    private long offset;
    private long remaining;
    private int part;
    private long partStart;
    private FileContent current;
    private boolean closed;

    PartsContent(DataPath data, List<FilePart> parts, long offset, long length) {
        this.data = data;
        this.parts = parts;
        this.offset = offset;
        this.remaining = length;
    }

    @Override
    public synchronized CompletableFuture<ByteBuf> read() {
        if (closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("content closed"));
        }
        if (current == null) {
            if (remaining == 0) {
                return CompletableFuture.completedFuture(null);
            }
            // Skip whole parts before the offset.
            while (part < parts.size() && offset >= partStart + parts.get(part).file().size()) {
                partStart += parts.get(part).file().size();
                part++;
            }
            if (part >= parts.size()) {
                return CompletableFuture.failedFuture(new IllegalStateException("range past the object's parts"));
            }
            long size = parts.get(part).file().size();
            long from = offset - partStart;
            long length = Math.min(size - from, remaining);
            current = data.read(StoredFiles.fromRef(parts.get(part).file()), from, length);
        }
        FileContent reading = current;
        // The S3 edge answers by the failure's code only for a store's exception: a read short of chunks
        // (UNAVAILABLE, 503: retry later) was an InternalError without this (issue #23's soak).
        return StoreErrors.map(reading.read()).thenCompose(buf -> {
            synchronized (this) {
                if (buf == null) {
                    reading.close();
                    current = null;
                    return read();
                }
                offset += buf.readableBytes();
                remaining -= buf.readableBytes();
                return CompletableFuture.completedFuture(buf);
            }
        });
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
