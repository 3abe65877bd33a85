package io.shardvault.pod.internal;

import io.shardvault.common.DaemonThreads;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * One disk's directory and the single "sync lane" thread that runs the flusher's fsyncs for it:
 * flushes run in parallel across tomes, one at a time on each, like the one head stack of a drive.
 *
 * <pre>
 *  HEALTHY ──markFailed()──▶ FAILED  (no more writes; nothing of it purged; recovery leaves its
 *                                     shards' stash copies alone)
 * </pre>
 * The flusher records the failure in the state directory ({@link FailedTomeMarker}), and every
 * start marks the tome failed again until an operator deletes that record.
 *
 * <p>Thread-safe. Closing stops the lane after the work already queued on it.
 */
public final class Tome implements Closeable {
    private final int index;
    private final Path directory;
    private final TomeIo io;
    /** Syncs the tome's whole file system at once; null where the platform cannot (files are synced one by one). */
    private final TomeSync fileSystemSync;
    private static final AtomicInteger SYNC_THREADS = new AtomicInteger();
    private final ExecutorService lane;
    /** Looked up on first use and kept: Files.getFileStore per stats call was measurable CPU (issue #18). */
    private FileStore fileStore;
    /** Why the tome failed; null while it is healthy. */
    private volatile String failure;
    /** When it failed; {@link Instant#EPOCH} when unknown (a damaged record). */
    private volatile Instant failedAt = Instant.EPOCH;
    /** Whether its failure is in the state directory ({@link FailedTomeMarker}). */
    private volatile boolean recorded;

    public Tome(int index, Path directory, TomeIo io) throws IOException {
        this.index = index;
        this.directory = directory.toAbsolutePath().normalize();
        this.io = io;
        // Opened before the first write, so that a writeback error of any of them is reported.
        this.fileSystemSync = io.openFileSystemSync(this.directory);
        // Numbered across the JVM: one process holds the same tome index of many pods.
        this.lane = Executors.newSingleThreadExecutor(
                DaemonThreads.named("tome-" + index + "-sync-" + SYNC_THREADS.incrementAndGet()));
    }

    public int index() {
        return index;
    }

    public Path directory() {
        return directory;
    }

    public TomeIo io() {
        return io;
    }

    /** What syncs the tome's whole file system at once, or null: then each file is synced by itself. */
    public TomeSync fileSystemSync() {
        return fileSystemSync;
    }

    /** Bytes free on the tome's file system. */
    public long usableSpace() throws IOException {
        FileStore store;
        synchronized (this) {
            if (fileStore == null) {
                fileStore = io.fileStore(directory);
            }
            store = fileStore;
        }
        return store.getUsableSpace();
    }

    /**
     * Marks the tome failed: a shard on it could not be made durable (see {@link Flusher}). From
     * now on it takes no writes and the flusher purges none of its shards, so their stash copies stay.
     * In memory only: {@link FailedTomeMarker} is its durable record.
     *
     * @param at when it failed ({@link Instant#EPOCH}: unknown)
     * @return true if the tome was healthy until now
     */
    public synchronized boolean markFailed(String reason, Instant at) {
        boolean first = failure == null;
        if (first) {
            failedAt = at;
            failure = reason;
        }
        return first;
    }

    /** Notes that the failure is recorded in the state directory; false until then. */
    public void markRecorded() {
        recorded = true;
    }

    /** Whether {@link #markRecorded} was called: a restart would bring the tome up failed. */
    public boolean recorded() {
        return recorded;
    }

    /** When the tome failed; {@link Instant#EPOCH} while healthy or when unknown. */
    public Instant failedAt() {
        return failedAt;
    }

    /** Whether {@link #markFailed} was called. */
    public boolean failed() {
        return failure != null;
    }

    /** Why the tome failed, or null. */
    public String failure() {
        return failure;
    }

    /** The tome's sync lane: one thread, so fsyncs on a tome never overlap. */
    public ExecutorService lane() {
        return lane;
    }

    @Override
    public void close() {
        lane.shutdown();
        try {
            lane.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (fileSystemSync != null) {
            try {
                fileSystemSync.close();
            } catch (IOException e) {
                LoggerFactory.getLogger(Tome.class).warn("{}: closing its file-system sync failed: {}", this,
                        e.toString());
            }
        }
    }

    @Override
    public String toString() {
        return "tome " + index + " (" + directory + ")";
    }
}
