package io.shardvault.pod.internal;

import io.shardvault.common.fs.CachedRead;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One open file on a tome, through the {@link TomeIo} seam. Positional reads and writes only.
 *
 * <p>Not thread-safe: one owner at a time (the shard's lock holder).
 */
public interface TomeFile extends Closeable {

    long size() throws IOException;

    /** Reads until {@code dst} is full or the file ends; returns the bytes read. */
    int read(ByteBuffer dst, long position) throws IOException;

    /**
     * Fills {@code dst} only if that needs no wait for the disk: the bytes read, or
     * {@link CachedRead#NOT_CACHED} when some of them are not in memory (and always
     * for a file that cannot tell, as this default does), and the caller reads the ordinary way.
     */
    default int readIfCached(ByteBuffer dst, long position) throws IOException {
        return CachedRead.NOT_CACHED;
    }

    /**
     * Writes all of {@code srcs}, one after the other, from {@code position}: one gathering write
     * ({@code pwritev}-like), so a record's header and its data reach the kernel in one call. Not
     * atomic and not durable until {@link #sync}: a crash may keep any prefix of it.
     */
    void write(ByteBuffer[] srcs, long position) throws IOException;

    /** Writes all of {@code src} at {@code position}. Not durable until {@link #sync}. */
    default void write(ByteBuffer src, long position) throws IOException {
        write(new ByteBuffer[] {src}, position);
    }

    void truncate(long size) throws IOException;

    /**
     * Makes the file's content durable: fdatasync, which also flushes the metadata needed to read
     * the data back (the file size and block map), but not timestamps.
     *
     * @param bytesHint bytes written since the last sync, for disk models that charge by size
     */
    void sync(long bytesHint) throws IOException;
}
