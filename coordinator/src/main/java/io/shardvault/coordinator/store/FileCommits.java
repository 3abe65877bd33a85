package io.shardvault.coordinator.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.data.DataPath;
import io.shardvault.coordinator.data.StoredFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What becomes of files once a catalog commit answers. A new file whose commit (a version, a part)
 * failed has its shards deleted only when the failure proves the commit did not happen, and left in
 * place otherwise; files a commit released (a replaced version, part or upload) wake the
 * {@link FileReaper}, which deletes their shards.
 *
 * <p>A <em>definite</em> failure is an answer from the catalog's state machine: it applied the
 * entry, refused it (a condition, a missing bucket or upload, a lock) and changed nothing; the
 * request id keeps a retried copy of the entry from ever applying it later. Anything else is
 * <em>ambiguous</em>: a timeout, a leader change, an unreachable or unavailable group, a reply this
 * coordinator could not read. The entry may be in a leader's log and commit after the caller gave
 * up (the Raft client keeps resending it until then), and the version would point at deleted
 * shards. Such a file stays, counted and logged at WARN with its id; the orphan collector (issue #20,
 * section 5) deletes it once no catalog entry references it. docs/COORDINATOR.md lists the codes.
 *
 * <p>Thread-safe.
 */
final class FileCommits {
    private static final Logger LOG = LoggerFactory.getLogger(FileCommits.class);

    /**
     * The codes the state machine answers with after applying a refused entry. Everything else,
     * {@code INTERNAL} included (an undecodable reply to an entry that did apply), is ambiguous.
     */
    private static final Set<ErrorCode> DEFINITE = EnumSet.of(ErrorCode.NO_SUCH_BUCKET, ErrorCode.NO_SUCH_KEY,
            ErrorCode.NO_SUCH_VERSION, ErrorCode.NO_SUCH_UPLOAD, ErrorCode.PRECONDITION_FAILED,
            ErrorCode.ACCESS_DENIED, ErrorCode.INVALID_PART, ErrorCode.INVALID_PART_ORDER,
            ErrorCode.ENTITY_TOO_SMALL, ErrorCode.INVALID_ARGUMENT, ErrorCode.BAD_REQUEST, ErrorCode.CONFLICT);

    private final DataPath data;
    private final FileReaper reaper;
    private final MeterRegistry registry;

    /** @param reaper woken when a commit released files (may be null: they wait for its next pass) */
    FileCommits(DataPath data, FileReaper reaper, MeterRegistry registry) {
        this.data = Objects.requireNonNull(data, "data");
        this.reaper = reaper;
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Commits {@code file} through {@code commit}; when the commit definitely failed the new file is
     * unreferenced and its shards go, otherwise (an unknown outcome) they stay.
     */
    <T> CompletableFuture<T> commitOrDelete(StoredFile file, CompletableFuture<T> commit) {
        return commit.whenComplete((r, failure) -> {
            if (failure != null) {
                release(file, ShardvaultException.unwrap(failure));
            }
        });
    }

    /** Files a commit released: the reaper is woken so their shards go soon. */
    void released(List<FileRef> files) {
        if (reaper != null && !files.isEmpty()) {
            reaper.wake();
        }
    }

    /** Whether {@code failure} (of a catalog write, unwrapped) proves the write was not applied. */
    private static boolean isDefinite(Throwable failure) {
        return failure instanceof CatalogException e && DEFINITE.contains(e.code());
    }

    /**
     * Deletes {@code file}'s shards when its commit definitely failed; leaves them to the orphan
     * collector otherwise.
     *
     * @param failure the commit's failure, unwrapped from any {@code CompletionException}
     */
    private void release(StoredFile file, Throwable failure) {
        if (isDefinite(failure)) {
            data.delete(file);
            return;
        }
        String code = failure instanceof CatalogException e ? e.code().name() : failure.getClass().getSimpleName();
        // shardvault.store.commit.unresolved: new files left on the pods because their catalog commit
        // failed ambiguously (it may still land); tag code: the failure's code. Each is either
        // referenced after all or an orphan for the collector.
        Counter.builder("shardvault.store.commit.unresolved").tag("code", code)
                .description("New files kept after a catalog commit of unknown outcome")
                .register(registry).increment();
        LOG.warn("catalog commit of file {}/{} failed with an unknown outcome ({}); its shards stay for the orphan "
                + "collector", file.vaultId(), file.fileId(), failure.toString());
    }
}
