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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Deletes the shards of files the catalog released (the catalog first, the shards after): takes a
 * page of the catalog's pending deletions, deletes each file's shards through the data paths, and
 * acknowledges those done; failures stay queued and are retried on a later pass. Deleting shards
 * is idempotent, so several coordinators reaping the same queue, or a pass repeated after a crash,
 * do no harm.
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

    public FileReaper(Catalog catalog, DataPath data, Duration interval) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.data = Objects.requireNonNull(data, "data");
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
            List<CompletableFuture<Long>> deletes = new ArrayList<>();
            for (FileDeletion d : pending) {
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
                return catalog.ackFileDeletions(done).thenApply(x -> done.size());
            });
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
