package io.shardvault.common.fs;

import io.shardvault.common.nativelib.OsCalls;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file read that never waits for the disk: {@code preadv2(2)} with {@code RWF_NOWAIT}, which takes
 * only what the page cache already holds. It lets a server answer a read on its event loop when the
 * bytes are in memory, and hand it to a worker thread, which may wait for the disk, only when they are
 * not: each hand-off wakes two threads (the worker, then the event loop for the answer), which cost a
 * pod process over a third of its CPU per GET (docs/PERFORMANCE.md, "A pod's page-cache reads on the event
 * loop").
 *
 * <p>Thread-safe: stateless. The caller keeps the channel open across a call.
 */
public final class CachedRead {
    /** What {@link #read} answers when some of the bytes are not in the page cache. */
    public static final int NOT_CACHED = -1;
    /** Linux's EAGAIN, the same on every architecture the shim builds for. */
    private static final int EAGAIN = 11;

    private CachedRead() {
    }

    /**
     * Null when {@link #read} can be used, else why not (no shim, an old kernel, a JDK whose channels it cannot
     * read).
     */
    public static String unavailableBecause() {
        return Holder.UNAVAILABLE;
    }

    /**
     * Fills {@code dst} (a direct buffer) from {@code position} if the page cache holds all of it, advancing its
     * position. Returns the bytes read, or {@link #NOT_CACHED} when any of them is not cached or the file ends
     * first (dst may then hold part of them; its position is unchanged): the caller reads the ordinary way.
     *
     * @throws IOException on any other error of the read
     */
    public static int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
        if (!dst.isDirect()) {
            throw new IllegalArgumentException("a cached read fills a direct buffer");
        }
        String why = unavailableBecause();
        if (why != null) {
            throw new UnsupportedOperationException("cached reads are unavailable: " + why);
        }
        if (channel.getClass() != Holder.CHANNEL_CLASS) {
            // The shim found the descriptor field on this class only; another's layout is unknown to it.
            throw new IllegalArgumentException("a cached read takes a channel of FileChannel.open, not a "
                    + channel.getClass().getName());
        }
        int want = dst.remaining();
        int done = 0;
        while (done < want) {
            int n = read0(channel, dst, dst.position() + done, want - done, position + done);
            if (n == -EAGAIN || n == 0) {
                return NOT_CACHED;
            }
            if (n < 0) {
                throw new IOException("preadv2 of " + want + " bytes at " + position + " failed: errno " + -n);
            }
            done += n;
        }
        dst.position(dst.position() + done);
        return done;
    }

    private static final class Holder {
        static final Class<?> CHANNEL_CLASS;
        static final String UNAVAILABLE;

        static {
            Class<?> probed = null;
            String why = OsCalls.unavailableBecause();
            if (why == null) {
                try {
                    probed = probeChannelClass();
                } catch (IOException | RuntimeException e) {
                    why = "cannot probe preadv2: " + e;
                }
            }
            CHANNEL_CLASS = probed;
            UNAVAILABLE = why != null ? why : probed == null
                    ? "the shim cannot read this JDK's channel descriptor, or the kernel refuses RWF_NOWAIT" : null;
        }
    }

    /** The class of FileChannel.open's channels, if the shim reads their descriptor and the kernel a cached read. */
    private static Class<?> probeChannelClass() throws IOException {
        Path probe = Files.createTempFile("shardvault-cached-read", ".probe");
        try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (init0(channel.getClass()) != 0) {
                return null;
            }
            channel.write(ByteBuffer.wrap(new byte[] {1}), 0);
            ByteBuffer one = ByteBuffer.allocateDirect(1);
            int n = read0(channel, one, 0, 1, 0);
            // A kernel without RWF_NOWAIT for buffered reads (before 4.14) refuses the flag.
            return n == 1 || n == -EAGAIN ? channel.getClass() : null;
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    private static native int init0(Class<?> channelClass);

    private static native int read0(FileChannel channel, ByteBuffer dst, int offset, int length, long position);
}
