package io.shardvault.pod.internal;

import io.shardvault.pod.PodConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A tome that loses power: it passes every operation to the real disk and remembers, per file,
 * what a power cut would leave (the content as of its last fsync; no file at all if its directory
 * entry was never synced). {@link #powerLoss()} stops all further I/O and rewrites the tome to that
 * state, so everything written but not fsynced is gone, as after a crash of the host.
 *
 * <p>The model, per path: {@code image} is what the path holds after a crash (null: absent);
 * {@code inodeSynced} the synced content of the file now at the path; {@code entryDurable} whether
 * the path's current directory entry was synced. File sync: {@code inodeSynced := content}, and
 * {@code image := inodeSynced} if the entry is durable. Directory sync: every entry in it becomes
 * durable, so {@code image := inodeSynced} (or absent for a deleted path; an empty file for a new
 * file never synced). A file-system sync ({@link #openFileSystemSync}, syncfs) is a file sync of every
 * path under the tome and a directory sync of every directory at once. A rename moves the inode's synced content and makes the target's entry
 * volatile. Writes never change {@code image}. A failed sync ({@link #failNextSyncs},
 * {@link #failNextDirectorySyncs}, {@link #failNextFileSystemSyncs}) loses what it covered for good, as
 * Linux may: later syncs of the same inode or entry succeed without making it durable.
 *
 * <p>Thread-safe. I/O takes a shared lock; the power cut takes it exclusively, so it sees no
 * operation half done.
 */
public final class FaultTomeIo implements TomeIo {
    private static final class Tracked {
        byte[] image;
        byte[] inodeSynced;
        boolean entryDurable;
        /** A sync of this inode failed: its dirty pages were dropped, and no later sync writes them. */
        boolean pagesLost;
        /** A sync of the directory failed while this entry was not durable: no later sync writes it. */
        boolean entryLost;
    }

    private final TomeIo disk = DirectTomeIo.INSTANCE;
    private final Map<Path, Tracked> tracked = new HashMap<>();
    private final ReentrantReadWriteLock power = new ReentrantReadWriteLock();
    private volatile boolean off;
    private final java.util.concurrent.CountDownLatch powerCut = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean syncsHeld;
    private final AtomicInteger failingSyncs = new AtomicInteger();
    private final AtomicInteger failingDirectorySyncs = new AtomicInteger();
    private final AtomicInteger failingFileSystemSyncs = new AtomicInteger();
    /** Whether tomes get a file-system sync, as on Linux 5.8+ with the native library; else file by file. */
    private final boolean fileSystemSyncs;
    /** The file system is full: file writes fail with ENOSPC, as the JDK reports it; creating a file does not. */
    private volatile boolean full;

    /** A tome whose flusher syncs its whole file system at once (syncfs), as production does where it can. */
    public FaultTomeIo() {
        this(true);
    }

    private FaultTomeIo(boolean fileSystemSyncs) {
        this.fileSystemSyncs = fileSystemSyncs;
    }

    /**
     * Fills the file system: from now until {@link #makeRoom} every file write fails with the JDK's "No space
     * left on device" and writes nothing, while files and directories may still be created (an inode is not a
     * data block: tmpfs and ext4 create them on a full disk).
     */
    public void fill() {
        full = true;
    }

    /** Space again after {@link #fill}. */
    public void makeRoom() {
        full = false;
    }

    /** A tome without a file-system sync: the flusher syncs each file and directory by itself. */
    public static FaultTomeIo fileByFile() {
        return new FaultTomeIo(false);
    }
    private final AtomicLong writeCalls = new AtomicLong();
    private final AtomicLong fileStoreLookups = new AtomicLong();

    /** File writes passed to the disk so far: one per {@link TomeFile#write} call, gathering or not. */
    public long writeCalls() {
        return writeCalls.get();
    }

    /** {@link #fileStore} calls so far. */
    public long fileStoreLookups() {
        return fileStoreLookups.get();
    }

    private void on() throws IOException {
        if (off) {
            throw new IOException("tome has lost power");
        }
    }

    private static byte[] contentOrNull(Path p) throws IOException {
        try {
            return Files.readAllBytes(p);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Starts tracking a path before its first change: until now, what is there is durable. */
    private Tracked track(Path p) throws IOException {
        synchronized (tracked) {
            Tracked t = tracked.get(p);
            if (t == null) {
                t = new Tracked();
                byte[] now = Files.isRegularFile(p) ? contentOrNull(p) : null;
                t.image = now;
                t.inodeSynced = now;
                t.entryDurable = true;
                tracked.put(p, t);
            }
            return t;
        }
    }

    /** True if the file at {@code p} would survive a power cut with exactly its current content. */
    public boolean isDurable(Path p) throws IOException {
        power.readLock().lock();
        try {
            synchronized (tracked) {
                Tracked t = tracked.get(p);
                byte[] now = contentOrNull(p);
                if (t == null) {
                    return now != null;
                }
                return now != null && t.image != null && java.util.Arrays.equals(now, t.image);
            }
        } finally {
            power.readLock().unlock();
        }
    }

    /**
     * A named fault point: from now on every file or directory sync waits for the power cut and then
     * fails, so writes acknowledged after this call are certain to be unflushed when it comes.
     */
    public void holdSyncs() {
        syncsHeld = true;
    }

    private void awaitIfHeld() throws IOException {
        if (!syncsHeld) {
            return;
        }
        try {
            powerCut.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while a sync was held", e);
        }
    }

    /**
     * A named fault point: the next {@code count} file syncs on this tome fail as Linux fails an
     * fsync after a writeback error: the file's dirty pages are dropped (marked clean, never
     * written), so a later sync of the same file "succeeds" without making its content durable. A
     * new file (or one renamed over it) is a new inode and syncs normally.
     */
    public void failNextSyncs(int count) {
        failingSyncs.set(count);
    }

    /**
     * The next {@code count} directory syncs fail the same way: the directory's entries that were
     * not durable yet stay so after any later sync of it, until the path gets a new entry (a create,
     * a rename onto it).
     */
    public void failNextDirectorySyncs(int count) {
        failingDirectorySyncs.set(count);
    }

    /**
     * The next {@code count} file-system syncs fail as syncfs does after a writeback error anywhere on the
     * file system: every file with unsynced changes loses them and every entry not yet durable is lost,
     * as for {@link #failNextSyncs} and {@link #failNextDirectorySyncs}.
     */
    public void failNextFileSystemSyncs(int count) {
        failingFileSystemSyncs.set(count);
    }

    /** Cuts the power: no more I/O, and the tome is left as a crash would leave it. */
    public void powerLoss() throws IOException {
        powerLoss(null);
    }

    /** Cuts the power of a pod's machine: its tomes lose what was not synced ({@link #powerLoss()}), then {@link #haltAtThePowerCut}. */
    public static void powerCut(List<FaultTomeIo> disks, PodConfig config, Runnable halt) throws IOException {
        for (FaultTomeIo d : disks) {
            d.powerLoss();
        }
        haltAtThePowerCut(config, halt);
    }

    /**
     * Stops a pod whose tomes just lost power, as in the same instant. The tomes go first (held syncs must fail,
     * not complete), so the pod lives a moment longer than its disks and may record a tome failed as those syncs
     * fail; that record went to a disk that lost power with the rest, and a real cut leaves no time to write
     * it: it is removed.
     */
    public static void haltAtThePowerCut(PodConfig config, Runnable halt) throws IOException {
        halt.run();
        for (int tome = 0; tome < config.tomes().size(); tome++) {
            Files.deleteIfExists(config.stateDir().resolve(FailedTomeMarker.name(tome)));
        }
    }

    /**
     * Cuts the power in the middle of the writes since the last syncs: a file that was only
     * appended to since its last sync (or created, with its entry synced) keeps, besides what a
     * crash keeps, a random prefix of the unsynced tail, as a write(2)/writev(2) cut short leaves
     * it. The worst case for the shard format: a header without its record, a record header
     * without all of its data.
     */
    public void tornPowerLoss(Random random) throws IOException {
        powerLoss(random);
    }

    private void powerLoss(Random tear) throws IOException {
        // Off before the held syncs are released, so that they fail as holdSyncs promises rather
        // than race the cut and complete.
        off = true;
        powerCut.countDown();
        power.writeLock().lock();
        try {
            synchronized (tracked) {
                for (Map.Entry<Path, Tracked> e : tracked.entrySet()) {
                    Path p = e.getKey();
                    byte[] image = e.getValue().image;
                    if (tear != null && image != null) {
                        image = tornImage(image, contentOrNull(p), tear);
                    }
                    if (image == null) {
                        Files.deleteIfExists(p);
                    } else {
                        Files.write(p, image, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                                StandardOpenOption.WRITE);
                    }
                }
                tracked.clear();
            }
        } finally {
            power.writeLock().unlock();
        }
    }

    /** {@code image} plus a random prefix of what {@code now} appended to it, if {@code now} only appended. */
    private static byte[] tornImage(byte[] image, byte[] now, Random tear) {
        if (now == null || now.length <= image.length
                || !Arrays.equals(now, 0, image.length, image, 0, image.length)) {
            return image;
        }
        return Arrays.copyOf(now, image.length + tear.nextInt(now.length - image.length + 1));
    }

    @Override
    public TomeFile open(Path path, OpenMode mode) throws IOException {
        power.readLock().lock();
        try {
            on();
            TomeFile file;
            if (mode == OpenMode.CREATE_NEW) {
                synchronized (tracked) {
                    if (Files.exists(path)) {
                        throw new FileAlreadyExistsException(path.toString());
                    }
                    Tracked t = track(path);
                    file = disk.open(path, mode);
                    t.inodeSynced = null;
                    t.entryDurable = false;
                    t.pagesLost = false;
                    t.entryLost = false;
                }
            } else {
                file = disk.open(path, mode);
            }
            return new FaultFile(path, file);
        } finally {
            power.readLock().unlock();
        }
    }

    private final class FaultFile implements TomeFile {
        private final Path path;
        private final TomeFile file;

        FaultFile(Path path, TomeFile file) {
            this.path = path;
            this.file = file;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            power.readLock().lock();
            try {
                on();
                return file.read(dst, position);
            } finally {
                power.readLock().unlock();
            }
        }

        @Override
        public void write(ByteBuffer[] srcs, long position) throws IOException {
            power.readLock().lock();
            try {
                on();
                if (full) {
                    throw new IOException("No space left on device");
                }
                track(path);
                writeCalls.incrementAndGet();
                file.write(srcs, position);
            } finally {
                power.readLock().unlock();
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            power.readLock().lock();
            try {
                on();
                track(path);
                file.truncate(size);
            } finally {
                power.readLock().unlock();
            }
        }

        @Override
        public void sync(long bytesHint) throws IOException {
            awaitIfHeld();
            power.readLock().lock();
            try {
                on();
                if (failingSyncs.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    synchronized (tracked) {
                        track(path).pagesLost = true;
                    }
                    throw new IOException("fsync failed (injected): dirty pages of " + path + " dropped");
                }
                file.sync(bytesHint);
                synchronized (tracked) {
                    Tracked t = track(path);
                    if (t.pagesLost) {
                        return; // nothing dirty to write as far as the kernel knows
                    }
                    t.inodeSynced = contentOrNull(path);
                    if (t.entryDurable) {
                        t.image = t.inodeSynced;
                    }
                }
            } finally {
                power.readLock().unlock();
            }
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        awaitIfHeld();
        power.readLock().lock();
        try {
            on();
            if (failingDirectorySyncs.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                synchronized (tracked) {
                    for (Map.Entry<Path, Tracked> e : tracked.entrySet()) {
                        if (directory.equals(e.getKey().getParent()) && !e.getValue().entryDurable) {
                            e.getValue().entryLost = true;
                        }
                    }
                }
                throw new IOException("directory sync failed (injected): entries of " + directory + " dropped");
            }
            disk.syncDirectory(directory);
            synchronized (tracked) {
                for (Map.Entry<Path, Tracked> e : tracked.entrySet()) {
                    if (!directory.equals(e.getKey().getParent()) || e.getValue().entryLost) {
                        continue;
                    }
                    Tracked t = e.getValue();
                    t.entryDurable = true;
                    if (!Files.exists(e.getKey())) {
                        t.image = null;
                    } else {
                        t.image = t.inodeSynced == null ? new byte[0] : t.inodeSynced;
                    }
                }
            }
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public TomeSync openFileSystemSync(Path directory) {
        if (!fileSystemSyncs) {
            return null;
        }
        return new TomeSync() {
            @Override
            public void sync(int files, long bytes) throws IOException {
                syncFileSystem(directory);
            }

            @Override
            public void close() {
            }
        };
    }

    /** A file sync of every tracked path under {@code root} and a directory sync of every directory, at once. */
    private void syncFileSystem(Path root) throws IOException {
        awaitIfHeld();
        power.readLock().lock();
        try {
            on();
            boolean fail = failingFileSystemSyncs.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
            synchronized (tracked) {
                for (Map.Entry<Path, Tracked> e : tracked.entrySet()) {
                    if (!e.getKey().startsWith(root)) {
                        continue;
                    }
                    Tracked t = e.getValue();
                    byte[] now = contentOrNull(e.getKey());
                    if (fail) {
                        t.pagesLost |= now != null && !Arrays.equals(now, t.inodeSynced);
                        t.entryLost |= !t.entryDurable;
                        continue;
                    }
                    if (now != null && !t.pagesLost) {
                        t.inodeSynced = now;
                    }
                    if (!t.entryLost) {
                        t.entryDurable = true;
                        t.image = now == null ? null : t.inodeSynced == null ? new byte[0] : t.inodeSynced;
                    }
                }
            }
            if (fail) {
                throw new IOException("syncfs failed (injected): unsynced writes under " + root + " dropped");
            }
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public boolean createDirectory(Path directory) throws IOException {
        power.readLock().lock();
        try {
            on();
            // Directories are created and their parents synced at once by the store; a crash
            // between the two would at worst lose an empty directory, which is recreated.
            return disk.createDirectory(directory);
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        power.readLock().lock();
        try {
            on();
            synchronized (tracked) {
                Tracked t = track(path);
                t.entryDurable = false;
                return disk.deleteIfExists(path);
            }
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public void replace(Path source, Path target) throws IOException {
        power.readLock().lock();
        try {
            on();
            synchronized (tracked) {
                Tracked src = track(source);
                Tracked dst = track(target);
                disk.replace(source, target);
                dst.inodeSynced = src.inodeSynced;
                dst.pagesLost = src.pagesLost;
                dst.entryLost = false;
                dst.entryDurable = false;
                src.entryDurable = false;
            }
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
        power.readLock().lock();
        try {
            on();
            return disk.list(directory);
        } finally {
            power.readLock().unlock();
        }
    }

    @Override
    public boolean exists(Path path) {
        return disk.exists(path);
    }

    @Override
    public FileStore fileStore(Path path) throws IOException {
        fileStoreLookups.incrementAndGet();
        return disk.fileStore(path);
    }
}
