package io.shardvault.coordinator.repair;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** The repair meters, declared and documented in one place. Thread-safe. */
public final class RepairMetrics {
    /** {@code shardvault.repair.degraded.files}: files in the repair queue, as of the last pass. */
    final AtomicLong degradedFiles = new AtomicLong();
    /** {@code shardvault.repair.degraded.bytes}: bytes of the files in the repair queue, as of the last pass. */
    final AtomicLong degradedBytes = new AtomicLong();
    /** {@code shardvault.repair.queue.oldest.seconds}: age of the oldest queued damage, as of the last pass. */
    final AtomicLong oldestAgeSeconds = new AtomicLong();
    /** {@code shardvault.repair.shards}: shards rebuilt and written durably (whole shards). */
    final Counter shardsRepaired;
    /** {@code shardvault.repair.bytes}: shard bytes rebuilt and written durably. */
    final Counter bytesRepaired;
    /** {@code shardvault.repair.failures}: file repairs that failed (the file stays queued, backed off). */
    final Counter failures;
    /** {@code shardvault.repair.dropped}: queued files no longer referenced (deleted meanwhile), dropped. */
    final Counter dropped;
    /** {@code shardvault.repair.reports{outcome=queued|duplicate|dropped|failed}}: damage reported by reads. */
    final Counter reportsQueued;
    final Counter reportsDuplicate;
    final Counter reportsDropped;
    final Counter reportsFailed;
    /** {@code shardvault.repair.scrub.findings{outcome=queued|dropped}}: pods' scrub findings taken (dropped: no
     * longer referenced, or outside the cluster map). */
    final Counter scrubFindingsQueued;
    final Counter scrubFindingsDropped;
    /** {@code shardvault.repair.scrub.failures}: scrub findings rounds of a pod that failed (retried next round). */
    final Counter scrubCollectFailures;

    public RepairMetrics(MeterRegistry registry) {
        Gauge.builder("shardvault.repair.degraded.files", degradedFiles, AtomicLong::get)
                .description("files in the repair queue, as of the last pass").register(registry);
        Gauge.builder("shardvault.repair.degraded.bytes", degradedBytes, AtomicLong::get)
                .description("bytes of the files in the repair queue, as of the last pass").baseUnit("bytes")
                .register(registry);
        Gauge.builder("shardvault.repair.queue.oldest.seconds", oldestAgeSeconds, AtomicLong::get)
                .description("age of the oldest queued damage, as of the last pass").baseUnit("seconds")
                .register(registry);
        shardsRepaired = registry.counter("shardvault.repair.shards");
        bytesRepaired = Counter.builder("shardvault.repair.bytes").baseUnit("bytes").register(registry);
        failures = registry.counter("shardvault.repair.failures");
        dropped = registry.counter("shardvault.repair.dropped");
        reportsQueued = registry.counter("shardvault.repair.reports", "outcome", "queued");
        reportsDuplicate = registry.counter("shardvault.repair.reports", "outcome", "duplicate");
        reportsDropped = registry.counter("shardvault.repair.reports", "outcome", "dropped");
        reportsFailed = registry.counter("shardvault.repair.reports", "outcome", "failed");
        scrubFindingsQueued = registry.counter("shardvault.repair.scrub.findings", "outcome", "queued");
        scrubFindingsDropped = registry.counter("shardvault.repair.scrub.findings", "outcome", "dropped");
        scrubCollectFailures = registry.counter("shardvault.repair.scrub.failures");
    }
}
