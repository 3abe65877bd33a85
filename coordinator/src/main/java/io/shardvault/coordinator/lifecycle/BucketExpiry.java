package io.shardvault.coordinator.lifecycle;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.DeleteIfLatest;
import io.shardvault.coordinator.catalog.DeleteObjectVersion;
import io.shardvault.coordinator.catalog.DeleteOutcome;
import io.shardvault.coordinator.catalog.DeleteResult;
import io.shardvault.coordinator.catalog.FileRef;
import io.shardvault.coordinator.catalog.ListVersionsQuery;
import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.coordinator.catalog.ObjectVersion;
import io.shardvault.coordinator.catalog.UploadListing;
import io.shardvault.coordinator.catalog.VersionListing;
import io.shardvault.coordinator.catalog.VersioningState;
import io.shardvault.coordinator.repair.Bounded;
import io.shardvault.coordinator.repair.RateLimiter;
import io.shardvault.s3.LifecycleConfiguration;
import io.shardvault.s3.LifecycleRule;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one bucket's enabled rules once, at one instant: each rule walks the versions (and the uploads)
 * under its prefix and removes what is due, a batch of deletes per catalog entry, paced by the rate.
 *
 * <p>Every removal is the catalog's own delete, as S3's DeleteObject(s) and AbortMultipartUpload make it, so
 * files are released and usage counted by the code that does it for S3. Each delete also names the key's
 * newest version as this walk saw it ({@link Catalog#deleteObjectsIfLatest}): a PUT that lands in between is
 * never expired in the old version's stead. A version under a legal hold or an unexpired retention is never
 * removed: it is skipped here, and the catalog refuses such a delete anyway.
 */
final class BucketExpiry {
    private static final Logger LOG = LoggerFactory.getLogger(BucketExpiry.class);
    private static final int PAGE = 1000;

    /** What a planned delete does, for the counters. */
    private enum Kind { CURRENT, NONCURRENT, MARKER }

    private record Planned(Kind kind, DeleteIfLatest delete) {
    }

    private final Catalog catalog;
    private final Bucket bucket;
    private final int batch;
    private final RateLimiter rate;
    private final BooleanSupplier active;
    private final Instant now;
    private final Duration callLimit;
    private final ExpiryTally tally;
    private final List<Planned> pending = new ArrayList<>();

    BucketExpiry(Catalog catalog, Bucket bucket, int batch, RateLimiter rate, BooleanSupplier active, Instant now,
                 Duration callLimit, ExpiryTally tally) {
        this.catalog = catalog;
        this.bucket = bucket;
        this.batch = batch;
        this.rate = rate;
        this.active = active;
        this.now = now;
        this.callLimit = callLimit;
        this.tally = tally;
    }

    /** Applies every enabled rule; stops early, leaving the rest to a later run, when no longer active. */
    void apply(LifecycleConfiguration configuration) throws IOException, InterruptedException {
        for (LifecycleRule rule : configuration.rules()) {
            if (!rule.enabled() || !active.getAsBoolean()) {
                continue;
            }
            if (rule.expiresCurrent() || rule.expiredObjectDeleteMarker() || rule.noncurrentDays() > 0) {
                walkVersions(rule);
            }
            if (rule.abortAfterDays() > 0) {
                abortUploads(rule);
            }
        }
    }

    private void walkVersions(LifecycleRule rule) throws IOException, InterruptedException {
        String keyMarker = "";
        String versionMarker = "";
        List<ObjectVersion> key = new ArrayList<>();
        VersionListing page;
        do {
            page = await(catalog.listObjectVersions(new ListVersionsQuery(bucket.name(), rule.prefix(), "", keyMarker,
                    versionMarker, PAGE)), "list versions of " + bucket.name());
            for (ObjectVersion v : page.versions()) {
                if (!key.isEmpty() && !key.get(0).key().equals(v.key())) {
                    plan(rule, key);
                    key.clear();
                }
                key.add(v);
            }
            if (!active.getAsBoolean()) {
                return;
            }
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        } while (page.truncated());
        if (!key.isEmpty()) {
            plan(rule, key);
        }
        flush();
    }

    /** Plans the removals one key's versions (newest first, all of them) are due for. */
    private void plan(LifecycleRule rule, List<ObjectVersion> versions) throws IOException, InterruptedException {
        ObjectVersion current = versions.get(0);
        if (rule.expiresCurrent() && !current.deleteMarker() && currentDue(rule, current)) {
            // A versioned bucket only hides the version behind a delete marker, which no lock forbids.
            if (bucket.versioning() != VersioningState.ENABLED && locked(current)) {
                tally.skippedLocked++;
            } else {
                add(Kind.CURRENT, current, Optional.empty());
            }
            // Its successor is the marker written now: the noncurrent ages are counted from the next run on.
            return;
        }
        // A lone marker goes under ExpiredObjectDeleteMarker, and under Expiration once it is as old as the rule
        // says (as S3 and MinIO do: ExpiredObjectDeleteMarker cannot be given beside Days or Date).
        if (current.deleteMarker() && versions.size() == 1 && (rule.expiredObjectDeleteMarker()
                || rule.expiresCurrent() && currentDue(rule, current))) {
            add(Kind.MARKER, current, Optional.of(current.versionId()));
        }
        if (rule.noncurrentDays() > 0) {
            for (int i = 1 + rule.newerNoncurrentVersions(); i < versions.size(); i++) {
                ObjectVersion v = versions.get(i);
                // A version is noncurrent since its successor was written.
                if (!ExpiryDates.isDue(versions.get(i - 1).lastModified(), rule.noncurrentDays(), now)) {
                    continue;
                }
                if (locked(v)) {
                    tally.skippedLocked++;
                } else {
                    add(Kind.NONCURRENT, current, Optional.of(v.versionId()));
                }
            }
        }
    }

    private boolean currentDue(LifecycleRule rule, ObjectVersion v) {
        if (rule.expirationDays() > 0) {
            return ExpiryDates.isDue(v.lastModified(), rule.expirationDays(), now);
        }
        return !now.isBefore(rule.expirationDate().orElseThrow());
    }

    private boolean locked(ObjectVersion v) {
        return v.legalHold() || v.retention().map(r -> r.activeAt(now)).orElse(false);
    }

    private void add(Kind kind, ObjectVersion newest, Optional<String> versionId)
            throws IOException, InterruptedException {
        pending.add(new Planned(kind, new DeleteIfLatest(new DeleteObjectVersion(bucket.name(), newest.key(), versionId,
                false), newest.versionId(), newest.lastModified())));
        if (pending.size() >= batch) {
            flush();
        }
    }

    private void flush() throws IOException, InterruptedException {
        if (pending.isEmpty() || !active.getAsBoolean()) {
            pending.clear();
            return;
        }
        rate.acquire(pending.size());
        List<DeleteOutcome> outcomes = await(catalog.deleteObjectsIfLatest(pending.stream().map(Planned::delete)
                .toList()), "lifecycle deletes in " + bucket.name());
        for (int i = 0; i < outcomes.size(); i++) {
            count(pending.get(i), outcomes.get(i));
        }
        pending.clear();
    }

    private void count(Planned p, DeleteOutcome o) {
        if (o.result().isEmpty()) {
            ErrorCode code = o.error().orElseThrow();
            if (code == ErrorCode.ACCESS_DENIED) {
                tally.skippedLocked++;
            } else if (code != ErrorCode.PRECONDITION_FAILED) {
                // PRECONDITION_FAILED: the key changed since the listing; the next run sees it anew.
                LOG.warn("lifecycle: delete of {} in {} refused ({}): {}", o.request().key(), bucket.name(), code,
                        o.errorMessage());
            }
            return;
        }
        DeleteResult r = o.result().get();
        if (p.kind() != Kind.CURRENT && r.versionId().isEmpty()) {
            return; // already gone
        }
        switch (p.kind()) {
            case CURRENT -> tally.objectsExpired++;
            case NONCURRENT -> tally.noncurrentExpired++;
            case MARKER -> tally.deleteMarkersRemoved++;
            default -> throw new IllegalStateException(p.kind().toString());
        }
        tally.bytesFreed += bytes(r.releasedFiles());
    }

    private void abortUploads(LifecycleRule rule) throws IOException, InterruptedException {
        String keyMarker = "";
        String uploadMarker = "";
        UploadListing page;
        do {
            page = await(catalog.listMultipartUploads(bucket.name(), rule.prefix(), keyMarker, uploadMarker, PAGE),
                    "list uploads of " + bucket.name());
            for (MultipartUpload u : page.uploads()) {
                if (!active.getAsBoolean()) {
                    return;
                }
                if (ExpiryDates.isDue(u.initiated(), rule.abortAfterDays(), now)) {
                    abort(u);
                }
            }
            keyMarker = page.nextKeyMarker();
            uploadMarker = page.nextUploadIdMarker();
        } while (page.truncated());
    }

    private void abort(MultipartUpload u) throws IOException, InterruptedException {
        rate.acquire(1);
        try {
            List<FileRef> released = await(catalog.abortMultipartUpload(bucket.name(), u.key(), u.uploadId()),
                    "abort upload " + u.uploadId());
            tally.uploadsAborted++;
            tally.bytesFreed += bytes(released);
        } catch (IOException e) {
            if (!(e.getCause() instanceof CatalogException c && c.code() == ErrorCode.NO_SUCH_UPLOAD)) {
                throw e;
            }
            // completed or aborted since the listing
        }
    }

    private static long bytes(List<FileRef> files) {
        return files.stream().mapToLong(FileRef::size).sum();
    }

    private <T> T await(CompletableFuture<T> f, String what) throws IOException, InterruptedException {
        return Bounded.await(f, callLimit, what);
    }
}
