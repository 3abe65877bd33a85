package io.shardvault.coordinator.collect;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** The orphan collector's meters, declared and documented in one place. Thread-safe. */
public final class CollectMetrics {
    /** {@code shardvault.collect.orphans.found}: unreferenced files the last pass found (collectable or still in grace). */
    final AtomicLong orphansFound = new AtomicLong();
    /** {@code shardvault.collect.orphans.waiting}: of those, files younger than the grace, left for a later pass. */
    final AtomicLong orphansWaiting = new AtomicLong();
    /** {@code shardvault.collect.last.pass.millis}: when the last complete pass ended, epoch ms (0: none yet). */
    final AtomicLong lastPassMillis = new AtomicLong();
    /** {@code shardvault.collect.files}: files fenced in the catalog and collected. */
    final Counter filesCollected;
    /** {@code shardvault.collect.shards}: shards that existed and were deleted from pods. */
    final Counter shardsDeleted;
    /** {@code shardvault.collect.stash.entries}: stash entries of collected files purged (as listed). */
    final Counter stashEntriesPurged;
    /** {@code shardvault.collect.stash.bytes}: bytes of those stash entries. */
    final Counter stashBytesPurged;
    /** {@code shardvault.collect.failures}: passes or file collections that failed (retried on a later pass). */
    final Counter failures;

    public CollectMetrics(MeterRegistry registry) {
        Gauge.builder("shardvault.collect.orphans.found", orphansFound, AtomicLong::get)
                .description("unreferenced files found by the last pass").register(registry);
        Gauge.builder("shardvault.collect.orphans.waiting", orphansWaiting, AtomicLong::get)
                .description("unreferenced files of the last pass still within the grace period").register(registry);
        Gauge.builder("shardvault.collect.last.pass.millis", lastPassMillis, AtomicLong::get)
                .description("end of the last complete collection pass, epoch ms").register(registry);
        filesCollected = registry.counter("shardvault.collect.files");
        shardsDeleted = registry.counter("shardvault.collect.shards");
        stashEntriesPurged = registry.counter("shardvault.collect.stash.entries");
        stashBytesPurged = Counter.builder("shardvault.collect.stash.bytes").baseUnit("bytes").register(registry);
        failures = registry.counter("shardvault.collect.failures");
    }
}
