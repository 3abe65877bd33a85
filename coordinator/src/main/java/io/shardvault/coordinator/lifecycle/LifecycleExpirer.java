package io.shardvault.coordinator.lifecycle;

import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.repair.Bounded;
import io.shardvault.coordinator.repair.PeriodicPass;
import io.shardvault.coordinator.repair.RateLimiter;
import io.shardvault.s3.LifecycleConfiguration;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the buckets' lifecycle rules (issue #24). Every {@code lifecycle.interval}, while this coordinator's
 * catalog peer leads, a run walks every bucket that has a configuration and applies its enabled rules
 * ({@link BucketExpiry}) at the clock's present instant:
 * <ul>
 *   <li>Expiration (Days, Date): a current version that is due is deleted as S3's DeleteObject deletes it: in an
 *       unversioned bucket removed, in a versioned one hidden behind a delete marker, in a suspended one replaced
 *       by a {@code null} delete marker;</li>
 *   <li>ExpiredObjectDeleteMarker: a delete marker that is its key's only version is removed;</li>
 *   <li>NoncurrentVersionExpiration: a version noncurrent (since its successor's creation) for the days is
 *       removed, but for the NewerNoncurrentVersions newest noncurrent ones;</li>
 *   <li>AbortIncompleteMultipartUpload: an upload initiated the days ago is aborted, its parts released.</li>
 * </ul>
 * A version under a legal hold or an unexpired retention is never removed.
 *
 * <p><b>Resumable.</b> A run keeps no state: it decides from the catalog and the clock alone, so a run cut off
 * (a leader change, a restart) is finished by the next run of whichever coordinator leads then. A run stops at
 * the next batch once its peer no longer leads.
 *
 * <p><b>Time.</b> Ages are the catalog's commit times (the leader's clock) against {@code clock}, which tests
 * move forward instead of waiting days.
 *
 * <p>Thread-safe: one run at a time, on its own thread; {@link #close()} stops the runs.
 */
public final class LifecycleExpirer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleExpirer.class);

    /** One run's outcome. */
    public record Run(int buckets, long objectsExpired, long noncurrentExpired, long deleteMarkersRemoved,
                      long uploadsAborted, long bytesFreed, long skippedLocked) {
    }

    private final LifecycleConfig config;
    private final Catalog catalog;
    private final BooleanSupplier leads;
    private final Runnable filesReleased;
    private final LifecycleMetrics metrics;
    private final Clock clock;
    /** The longest wait for one catalog call: twice its timeout. */
    private final Duration callLimit;
    private final RateLimiter rate;
    private PeriodicPass<Run> runs;

    private LifecycleExpirer(LifecycleConfig config, Catalog catalog, BooleanSupplier leads, Runnable filesReleased,
                             LifecycleMetrics metrics, Clock clock, Duration callTimeout) {
        this.config = Objects.requireNonNull(config, "config");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.leads = Objects.requireNonNull(leads, "leads");
        this.filesReleased = Objects.requireNonNull(filesReleased, "filesReleased");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.callLimit = callTimeout.multipliedBy(2);
        this.rate = new RateLimiter(config.deletesPerSecond(), System::nanoTime);
    }

    /**
     * Starts the runs (the first after one {@code lifecycle.interval}).
     *
     * @param leads whether this coordinator's catalog peer leads now (only then are rules applied)
     * @param filesReleased told after a run that removed something (wakes the file reaper)
     * @param clock the present, against which ages are counted
     * @param callTimeout the catalog's call timeout: a call not answered in twice that has failed
     */
    public static LifecycleExpirer start(LifecycleConfig config, Catalog catalog, BooleanSupplier leads,
                                         Runnable filesReleased, LifecycleMetrics metrics, Clock clock,
                                         Duration callTimeout) {
        LifecycleExpirer e = new LifecycleExpirer(config, catalog, leads, filesReleased, metrics, clock, callTimeout);
        e.runs = PeriodicPass.start("lifecycle-expirer", "lifecycle run", config.interval(), metrics.failures, e::run);
        return e;
    }

    /** Whether this coordinator applies rules now (enabled, and its catalog peer leads). */
    private boolean activeHere() {
        return config.enabled() && leads.getAsBoolean();
    }

    /** Runs once now, on the expirer's thread, and waits for it (an operator's action, and tests'). */
    public Run runNow() throws IOException, InterruptedException {
        return runs.runNow();
    }

    private Run run() throws IOException, InterruptedException {
        if (!activeHere()) {
            return new ExpiryTally().toRun(0);
        }
        long began = System.nanoTime();
        Instant now = clock.instant();
        ExpiryTally tally = new ExpiryTally();
        int withRules = 0;
        try {
            for (Bucket b : Bounded.await(catalog.listBuckets(), callLimit, "list buckets")) {
                if (!activeHere()) {
                    break;
                }
                try {
                    Optional<LifecycleConfiguration> doc = Bounded.await(StoredLifecycle.read(catalog, b.name()),
                            callLimit, "lifecycle of " + b.name());
                    if (doc.isEmpty()) {
                        continue;
                    }
                    withRules++;
                    new BucketExpiry(catalog, b, config.batch(), rate, this::activeHere, now, callLimit, tally)
                            .apply(doc.get());
                } catch (IOException e) {
                    // A bucket deleted meanwhile, a timeout: the other buckets still get their run.
                    metrics.failures.increment();
                    LOG.warn("lifecycle: bucket {} not done this run: {}", b.name(), e.toString());
                }
            }
        } catch (IOException e) {
            metrics.failures.increment();
            throw e;
        } finally {
            tally.addTo(metrics);
            if (tally.removedAny()) {
                filesReleased.run();
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        metrics.runDuration.record(took);
        metrics.lastRunMillis.set(clock.millis());
        Run r = tally.toRun(withRules);
        LOG.info("lifecycle run: {} buckets with rules; {} objects expired, {} noncurrent versions and {} delete markers"
                + " removed, {} uploads aborted, {} bytes freed, {} locked versions kept, in {} ms", r.buckets(),
                r.objectsExpired(), r.noncurrentExpired(), r.deleteMarkersRemoved(), r.uploadsAborted(), r.bytesFreed(),
                r.skippedLocked(), took.toMillis());
        return r;
    }

    @Override
    public void close() {
        runs.close();
    }
}
