package io.shardvault.common.fs;

import io.shardvault.common.nativelib.OsCalls;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * syncfs(2) on one file system: everything written to it (file data, inodes, directory entries) is
 * made durable by one call, where an fdatasync per file costs each file its own inode write and
 * cache flush (issue #18: a pod's flusher fsynced 20 files per PUT).
 *
 * <p>A handle keeps a descriptor of a directory open for its life, because syncfs reports a writeback
 * error that happened on the file system since the descriptor was opened or last synced (Linux 5.8
 * and later; before that it reported none, so {@link #unavailableBecause()} refuses older kernels).
 * An error anywhere on the file system fails the call: the caller cannot tell which file it hit.
 *
 * <p>Thread-safe; {@link #close} must not race {@link #sync}.
 */
public final class FileSystemSync implements Closeable {

    /** System property that, when {@code true}, keeps syncfs from being used (files are synced one by one). */
    public static final String DISABLE_PROPERTY = "shardvault.fs.syncfs.disabled";

    private final Path directory;
    private int fd;

    private FileSystemSync(Path directory, int fd) {
        this.directory = directory;
        this.fd = fd;
    }

    /** Null when handles can be opened, else why not (no library for this platform, an old kernel, disabled). */
    public static String unavailableBecause() {
        return Holder.UNAVAILABLE;
    }

    /** Opens a handle on the file system holding {@code directory}; see {@link #unavailableBecause()}. */
    public static FileSystemSync open(Path directory) throws IOException {
        String why = unavailableBecause();
        if (why != null) {
            throw new UnsupportedOperationException("syncfs is unavailable: " + why);
        }
        int fd = open0(directory.toAbsolutePath().toString());
        if (fd < 0) {
            throw new IOException("cannot open " + directory + " for syncfs: errno " + -fd);
        }
        return new FileSystemSync(directory, fd);
    }

    /** Makes everything written to the file system durable; an IOException if any of it may not be. */
    public synchronized void sync() throws IOException {
        if (fd < 0) {
            throw new IllegalStateException("syncfs handle of " + directory + " is closed");
        }
        int rc = syncfs0(fd);
        if (rc != 0) {
            throw new IOException("syncfs of the file system holding " + directory + " failed: errno " + -rc);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (fd < 0) {
            return;
        }
        int rc = close0(fd);
        fd = -1;
        if (rc != 0) {
            throw new IOException("closing the syncfs handle of " + directory + " failed: errno " + -rc);
        }
    }

    @Override
    public String toString() {
        return "syncfs(" + directory + ")";
    }

    /** Whether a kernel release string (os.version, e.g. {@code 6.1.0-13-amd64}) is at least 5.8. */
    static boolean reportsWritebackErrors(String release) {
        Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > 5 || major == 5 && minor >= 8;
    }

    private static final class Holder {
        static final String UNAVAILABLE = load();
    }

    private static String load() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            return "disabled by -D" + DISABLE_PROPERTY + "=true";
        }
        String noShim = OsCalls.unavailableBecause();
        if (noShim != null) {
            return noShim;
        }
        String release = System.getProperty("os.version", "");
        return reportsWritebackErrors(release) ? null
                : "Linux " + release + " is older than 5.8, whose syncfs does not report writeback errors";
    }

    private static native int open0(String path);

    private static native int syncfs0(int fd);

    private static native int close0(int fd);
}
