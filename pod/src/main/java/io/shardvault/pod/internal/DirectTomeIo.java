package io.shardvault.pod.internal;

import io.shardvault.common.fs.CachedRead;
import io.shardvault.common.fs.FileSystemSync;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real disk: {@link FileChannel}s on the default file system. Directory syncs open the
 * directory read-only and fsync it, which Linux supports.
 *
 * <p>Thread-safe: stateless.
 */
public final class DirectTomeIo implements TomeIo {

    public static final DirectTomeIo INSTANCE = new DirectTomeIo();

    private DirectTomeIo() {
    }

    @Override
    public TomeFile open(Path path, OpenMode mode) throws IOException {
        FileChannel channel = switch (mode) {
            case READ -> FileChannel.open(path, StandardOpenOption.READ);
            case WRITE -> FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            case CREATE_NEW -> FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE_NEW);
        };
        return new ChannelFile(channel);
    }

    /** A syncfs(2) handle, unless {@link FileSystemSync#unavailableBecause()} says why not. */
    @Override
    public TomeSync openFileSystemSync(Path directory) throws IOException {
        if (FileSystemSync.unavailableBecause() != null) {
            return null;
        }
        FileSystemSync sync = FileSystemSync.open(directory);
        return new TomeSync() {
            @Override
            public void sync(int files, long bytes) throws IOException {
                sync.sync();
            }

            @Override
            public void close() throws IOException {
                sync.close();
            }
        };
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    @Override
    public boolean createDirectory(Path directory) throws IOException {
        try {
            Files.createDirectory(directory);
            return true;
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(directory)) {
                throw e;
            }
            return false;
        }
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return Files.deleteIfExists(path);
    }

    @Override
    public void replace(Path source, Path target) throws IOException {
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return new ArrayList<>(entries.toList());
        } catch (NoSuchFileException e) {
            return new ArrayList<>();
        }
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public FileStore fileStore(Path path) throws IOException {
        return Files.getFileStore(path);
    }

    private static final class ChannelFile implements TomeFile {
        private final FileChannel channel;

        ChannelFile(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            int total = 0;
            while (dst.hasRemaining()) {
                int n = channel.read(dst, position + total);
                if (n < 0) {
                    break;
                }
                total += n;
            }
            return total;
        }

        @Override
        public int readIfCached(ByteBuffer dst, long position) throws IOException {
            return dst.isDirect() && CachedRead.unavailableBecause() == null ? CachedRead.read(channel, dst, position)
                    : CachedRead.NOT_CACHED;
        }

        @Override
        public void write(ByteBuffer[] srcs, long position) throws IOException {
            // FileChannel has no positional gathering write: set the position (this file has one
            // owner at a time) and let writev(2) take every buffer in one call.
            channel.position(position);
            int first = 0;
            while (true) {
                while (first < srcs.length && !srcs[first].hasRemaining()) {
                    first++;
                }
                if (first == srcs.length) {
                    return;
                }
                channel.write(srcs, first, srcs.length - first);
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public void sync(long bytesHint) throws IOException {
            // force(false) is fdatasync(2): it flushes the data and the metadata needed to read it
            // back (the file size, the block map), skipping only timestamps, so a synced append is
            // durable with its new length. A new file's directory entry is not inode metadata:
            // callers sync the directory for that (TomeIo#syncDirectory).
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
