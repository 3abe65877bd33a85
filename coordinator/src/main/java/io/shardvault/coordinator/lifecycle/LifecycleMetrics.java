package io.shardvault.coordinator.lifecycle;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/** The lifecycle expirer's meters, declared and documented in one place. Thread-safe. */
public final class LifecycleMetrics {
    /** {@code shardvault.lifecycle.objects.expired}: current versions expired (deleted, or hidden by a delete marker). */
    final Counter objectsExpired;
    /** {@code shardvault.lifecycle.noncurrent.expired}: noncurrent versions removed. */
    final Counter noncurrentExpired;
    /** {@code shardvault.lifecycle.delete.markers.removed}: expired object delete markers removed. */
    final Counter deleteMarkersRemoved;
    /** {@code shardvault.lifecycle.uploads.aborted}: incomplete multipart uploads aborted. */
    final Counter uploadsAborted;
    /** {@code shardvault.lifecycle.freed.bytes}: bytes of the files those removals released. */
    final Counter bytesFreed;
    /** {@code shardvault.lifecycle.skipped.locked}: due versions left alone for a retention or legal hold. */
    final Counter skippedLocked;
    /** {@code shardvault.lifecycle.failures}: runs or buckets that failed (retried on the next run). */
    final Counter failures;
    /** {@code shardvault.lifecycle.run}: how long each complete run took. */
    final Timer runDuration;
    /** {@code shardvault.lifecycle.last.run.millis}: when the last complete run ended, epoch ms (0: none yet). */
    final AtomicLong lastRunMillis = new AtomicLong();

    public LifecycleMetrics(MeterRegistry registry) {
        objectsExpired = registry.counter("shardvault.lifecycle.objects.expired");
        noncurrentExpired = registry.counter("shardvault.lifecycle.noncurrent.expired");
        deleteMarkersRemoved = registry.counter("shardvault.lifecycle.delete.markers.removed");
        uploadsAborted = registry.counter("shardvault.lifecycle.uploads.aborted");
        bytesFreed = Counter.builder("shardvault.lifecycle.freed.bytes").baseUnit("bytes").register(registry);
        skippedLocked = registry.counter("shardvault.lifecycle.skipped.locked");
        failures = registry.counter("shardvault.lifecycle.failures");
        runDuration = Timer.builder("shardvault.lifecycle.run").description("duration of a complete lifecycle run")
                .register(registry);
        Gauge.builder("shardvault.lifecycle.last.run.millis", lastRunMillis, AtomicLong::get)
                .description("end of the last complete lifecycle run, epoch ms").register(registry);
    }
}
