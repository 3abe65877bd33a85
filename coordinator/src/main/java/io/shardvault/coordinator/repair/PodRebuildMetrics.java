package io.shardvault.coordinator.repair;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The pod rebuild meters of this coordinator, declared and documented in one place. Thread-safe. */
public final class PodRebuildMetrics {
    /** {@code shardvault.rebuild.files}: live files walked by pod rebuilds run here. */
    final Counter filesWalked;
    /** {@code shardvault.rebuild.skipped}: files whose shard the pod already had (no read, no write). */
    final Counter shardsPresent;
    /** {@code shardvault.rebuild.shards}: shards found missing on the pod (rebuilt, unless a check). */
    final Counter shardsMissing;
    /** {@code shardvault.rebuild.bytes}: rebuilt shard bytes written. */
    final Counter bytesRebuilt;
    /** {@code shardvault.rebuild.decoded}: missing shards rebuilt by decoding from the vault's other pods. */
    final Counter shardsDecoded;
    /**
     * {@code shardvault.rebuild.copied}: missing shards copied from a decommissioned pod (no decode); a
     * decommission decodes ({@code decoded}) only what its source could not give.
     */
    final Counter shardsCopied;
    /** {@code shardvault.rebuild.failures}: shards that could not be rebuilt (queued for repair instead). */
    final Counter failures;
    /** {@code shardvault.rebuild.tail.checks}: present shards read back at their last chunk (resumed jobs). */
    final Counter tailChecks;

    public PodRebuildMetrics(MeterRegistry registry) {
        filesWalked = registry.counter("shardvault.rebuild.files");
        shardsPresent = registry.counter("shardvault.rebuild.skipped");
        shardsMissing = registry.counter("shardvault.rebuild.shards");
        bytesRebuilt = Counter.builder("shardvault.rebuild.bytes").baseUnit("bytes").register(registry);
        shardsDecoded = registry.counter("shardvault.rebuild.decoded");
        shardsCopied = registry.counter("shardvault.rebuild.copied");
        failures = registry.counter("shardvault.rebuild.failures");
        tailChecks = registry.counter("shardvault.rebuild.tail.checks");
    }
}
