package io.shardvault.stash.api;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * One entry read from the stash: its info and its bytes, already CRC-checked on both sides of
 * the wire. The entry owns {@link #data()}; {@link #close()} releases it, once.
 *
 * <p>Not thread-safe; hand it from thread to thread, don't share it.
 */
public final class StashEntry implements AutoCloseable {
    private final StashEntryInfo info;
    private final ByteBuf data;
    private boolean closed;

    /**
     * @param info the entry's info; {@code info.length()} must equal {@code data}'s readable bytes
     * @param data the chunk bytes; ownership passes to the entry
     */
    public StashEntry(StashEntryInfo info, ByteBuf data) {
        Objects.requireNonNull(data, "data");
        if (info == null || info.length() != data.readableBytes()) {
            int readable = data.readableBytes();
            data.release();
            throw new IllegalArgumentException("info " + info + " does not describe " + readable + " bytes");
        }
        this.info = info;
        this.data = data;
    }

    public StashEntryInfo info() {
        return info;
    }

    /** The chunk bytes; valid until {@link #close()}. */
    public ByteBuf data() {
        return data;
    }

    /** Releases the bytes; later calls do nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            data.release();
        }
    }

    @Override
    public String toString() {
        return "StashEntry{" + info + "}";
    }
}
