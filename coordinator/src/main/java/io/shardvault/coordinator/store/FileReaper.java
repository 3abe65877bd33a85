package io.shardvault.coordinator.store;

import io.shardvault.common.DaemonThreads;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.FileDeletion;
import io.shardvault.coordinator.data.DataPath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Deletes the shards of files the catalog released (the catalog first, the shards after): takes a
 * page of the catalog's pending deletions, deletes each file's shards through the data paths, and
 * acknowledges those done; failures stay queued and are retried on a later pass. Deleting shards
 * is idempotent, so several coordinators reaping the same queue, or a pass repeated after a crash,
 * do no harm.
 *
 * <p>A released file's shards stay for {@code grace} after this reaper first saw its deletion: a GET
 * that resolved the key before an overwrite or a delete reads the file to its end (as S3 serves a GET
 * begun before the write that replaced its object), where deleting at once failed it midway (issue #23,
 * bug 3). The grace counts from first sight, in memory: a restarted reaper waits it again, which only
 * delays the deletion; a GET longer than the grace can still lose its file and fails then, 503.
 *
 * <p>Thread-safe. One pass at a time; {@link #wake()} asks for one soon.
 */
public final class FileReaper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FileReaper.class);
    private static final int PAGE = 256;

    private final Catalog catalog;
    private final DataPath data;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean running = new AtomicBoolean();
    private final long graceNanos;
    private final LongSupplier nanoTicker;
    /** Deletion id to when this reaper first saw it pending; only ids of the last page read. */
    private final Map<Long, Long> firstSeen = new ConcurrentHashMap<>();

    public FileReaper(Catalog catalog, DataPath data, Duration interval, Duration grace, LongSupplier nanoTicker) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.data = Objects.requireNonNull(data, "data");
        this.graceNanos = grace.toNanos();
        this.nanoTicker = Objects.requireNonNull(nanoTicker, "nanoTicker");
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("file-reaper"));
        timer.scheduleWithFixedDelay(this::wake, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs a pass now unless one is running. */
    public void wake() {
        if (running.compareAndSet(false, true)) {
            pass().whenComplete((done, failure) -> {
                running.set(false);
                if (failure != null) {
                    LOG.warn("file deletion pass failed; retrying later: {}", failure.toString());
                } else if (done == PAGE) {
                    timer.execute(this::wake);
                }
            });
        }
    }

    /** One pass; completes with the number of deletions acknowledged. */
    public CompletableFuture<Integer> pass() {
        return catalog.pendingFileDeletions(PAGE).thenCompose(pending -> {
            long now = nanoTicker.getAsLong();
            // The queue is oldest first and only acknowledgements take ids out: an id seen before and still
            // pending is in this page, so ids not in it were acknowledged (here or by another coordinator).
            firstSeen.keySet().retainAll(pending.stream().map(FileDeletion::id).toList());
            List<CompletableFuture<Long>> deletes = new ArrayList<>();
            for (FileDeletion d : pending) {
                if (now - firstSeen.computeIfAbsent(d.id(), id -> now) < graceNanos) {
                    continue;
                }
                deletes.add(data.delete(StoredFiles.fromRef(d.file())).handle((v, failure) -> {
                    if (failure != null) {
                        LOG.warn("deleting the shards of file {}/{} failed, will retry: {}", d.file().vaultId(),
                                d.file().fileId(), failure.toString());
                        return null;
                    }
                    return d.id();
                }));
            }
            return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).thenCompose(v -> {
                List<Long> done = deletes.stream().map(CompletableFuture::join).filter(Objects::nonNull).toList();
                if (done.isEmpty()) {
                    return CompletableFuture.completedFuture(0);
                }
                return catalog.ackFileDeletions(done).thenApply(x -> {
                    done.forEach(firstSeen::remove);
                    return done.size();
                });
            });
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
