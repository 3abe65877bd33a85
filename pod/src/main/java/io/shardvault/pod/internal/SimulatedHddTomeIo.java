package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileStore;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A simulated 7,200 RPM drive under a real tome (a benchmark setting, off by default, and named
 * as simulated in every report): each file or directory sync first does the real fsync, then waits
 * a rotational delay drawn uniformly from 0–8.33 ms (one revolution at 7,200 RPM) plus its bytes
 * at 261 MB/s (a current 7,200 RPM drive's sustained rate); a sync of the whole file system waits
 * one such delay per file it covers. A drive has one head stack, so syncs on one tome are serialised
 * by a fair lock: the waits add up, as they would on the disk.
 *
 * <p>Thread-safe. The random source is seeded so runs can be repeated.
 */
public final class SimulatedHddTomeIo implements TomeIo {
    /** One revolution at 7,200 RPM: 60 s / 7,200. */
    static final long MAX_ROTATION_NANOS = TimeUnit.SECONDS.toNanos(60) / 7_200;
    /** Sustained transfer rate of the modelled drive, bytes per second. */
    static final long BYTES_PER_SECOND = 261_000_000L;

    private final TomeIo delegate;
    private final ReentrantLock head = new ReentrantLock(true);
    private final SplittableRandom random;

    public SimulatedHddTomeIo(TomeIo delegate, long seed) {
        this.delegate = delegate;
        this.random = new SplittableRandom(seed);
    }

    /** The modelled time of one sync of {@code bytes}: rotation plus transfer. */
    long syncNanos(long bytes) {
        long rotation;
        synchronized (random) {
            rotation = random.nextLong(MAX_ROTATION_NANOS + 1);
        }
        return rotation + bytes * 1_000_000_000L / BYTES_PER_SECOND;
    }

    private void syncOnHead(long bytes, IoAction action) throws IOException {
        head.lock();
        try {
            long start = System.nanoTime();
            action.run();
            long deadline = start + syncNanos(bytes);
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted during simulated disk sync", e);
                }
            }
        } finally {
            head.unlock();
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    @Override
    public TomeFile open(Path path, OpenMode mode) throws IOException {
        TomeFile file = delegate.open(path, mode);
        return new TomeFile() {
            @Override
            public long size() throws IOException {
                return file.size();
            }

            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                return file.read(dst, position);
            }

            @Override
            public void write(ByteBuffer[] srcs, long position) throws IOException {
                file.write(srcs, position);
            }

            @Override
            public void truncate(long size) throws IOException {
                file.truncate(size);
            }

            @Override
            public void sync(long bytesHint) throws IOException {
                syncOnHead(bytesHint, () -> file.sync(bytesHint));
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    /**
     * The real disk's handle, each call charged a rotational delay per file it covers plus its bytes:
     * one call saves the files' inode writes and cache flushes, not the seek to each file's data.
     */
    @Override
    public TomeSync openFileSystemSync(Path directory) throws IOException {
        TomeSync real = delegate.openFileSystemSync(directory);
        if (real == null) {
            return null;
        }
        return new TomeSync() {
            @Override
            public void sync(int files, long bytes) throws IOException {
                head.lock();
                try {
                    for (int i = 1; i < files; i++) {
                        syncOnHead(0, () -> { });
                    }
                    syncOnHead(bytes, () -> real.sync(files, bytes));
                } finally {
                    head.unlock();
                }
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        syncOnHead(0, () -> delegate.syncDirectory(directory));
    }

    @Override
    public boolean createDirectory(Path directory) throws IOException {
        return delegate.createDirectory(directory);
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return delegate.deleteIfExists(path);
    }

    @Override
    public void replace(Path source, Path target) throws IOException {
        delegate.replace(source, target);
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public boolean exists(Path path) {
        return delegate.exists(path);
    }

    @Override
    public FileStore fileStore(Path path) throws IOException {
        return delegate.fileStore(path);
    }
}
