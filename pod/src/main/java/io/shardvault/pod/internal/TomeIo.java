package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The seam between a tome and its disk: every file and directory operation a pod performs on a
 * tome goes through one of these, so that tests can put a crashable tome ({@code FaultTomeIo}) or
 * a simulated spinning disk ({@link SimulatedHddTomeIo}) under an unchanged pod.
 *
 * <p>Implementations are thread-safe. Paths are absolute paths inside the tome's directory.
 */
public interface TomeIo {

    /** How {@link #open} treats a missing or existing file. */
    enum OpenMode {
        /** Read only; the file must exist. */
        READ,
        /** Read and write; the file must exist. */
        WRITE,
        /** Read and write a new, empty file; fails with FileAlreadyExistsException if it exists. */
        CREATE_NEW
    }

    /** Opens a file; the caller closes it. */
    TomeFile open(Path path, OpenMode mode) throws IOException;

    /**
     * A handle that makes the whole file system holding {@code directory} durable at once ({@link TomeSync}),
     * or null when this platform cannot: the flusher then syncs each file and directory by itself.
     */
    default TomeSync openFileSystemSync(Path directory) throws IOException {
        return null;
    }

    /** Makes the directory's entries (files created, renamed or deleted in it) durable. */
    void syncDirectory(Path directory) throws IOException;

    /** Creates one directory whose parent exists; returns false if it already existed. */
    boolean createDirectory(Path directory) throws IOException;

    /** Deletes a file; returns false if it did not exist. The deletion is durable only after {@link #syncDirectory}. */
    boolean deleteIfExists(Path path) throws IOException;

    /** Renames atomically, replacing {@code target}; durable only after {@link #syncDirectory}. */
    void replace(Path source, Path target) throws IOException;

    /** The entries of a directory, or an empty list if it does not exist. */
    List<Path> list(Path directory) throws IOException;

    /** A file's last modification time, epoch millis; NoSuchFileException when it is gone. */
    default long lastModifiedMillis(Path path) throws IOException {
        return Files.getLastModifiedTime(path).toMillis();
    }

    /** Whether a file or directory exists. */
    boolean exists(Path path);

    /**
     * The file system holding {@code path}. A {@link Tome} looks it up once and asks it for free
     * space on every stats call (a {@code statvfs} of the path it was looked up for).
     */
    FileStore fileStore(Path path) throws IOException;
}
