package io.shardvault.coordinator.data.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The data paths' meters, declared and documented in one place. Thread-safe. */
final class DataPathMetrics {
    /** {@code shardvault.data.write{mode=stash|durable}}: whole-file write latency, quorum reached. */
    final Timer writeStash;
    final Timer writeDurable;
    /**
     * {@code shardvault.data.write.fallbacks{reason}}: small writes (stash-sized) that could not use
     * the stash and were written durably: {@code stash_full} (a stash answered STASH_FULL),
     * {@code stash_unreachable} (stash copies failed otherwise: down, timeout, BUSY),
     * {@code stash_down} (the stash was marked down after a recent failure, so it was not tried).
     */
    final Counter fallbackStashFull;
    final Counter fallbackStashUnreachable;
    final Counter fallbackStashDown;
    /**
     * {@code shardvault.data.write.durable.unassigned}: chunks of small writes sent durably, without a
     * stash copy, to a pod that could not recover a buffered write (not assigned, or no stash).
     */
    final Counter unassignedPodChunks;
    /**
     * {@code shardvault.data.write.refused.buffered}: buffered chunk writes a pod refused as not
     * recoverable, each sent again durably (the coordinator's view of the pod was stale).
     */
    final Counter bufferedRefused;
    /** {@code shardvault.data.write.missing.shards}: shards recorded missing by successful writes. */
    final Counter missingShards;
    /** {@code shardvault.data.write.failures}: writes that did not reach their quorum. */
    final Counter writeFailures;
    /** {@code shardvault.data.read.stripe}: latency of one stripe read, decode included. */
    final Timer stripeRead;
    /** {@code shardvault.data.read.decodes}: stripes rebuilt from parity or stash copies. */
    final Counter decodes;
    /** {@code shardvault.data.read.hedges}: stripes whose slow reads were hedged. */
    final Counter hedges;
    /** {@code shardvault.data.read.chunk.failures}: chunk reads that failed (down, CORRUPT, timeout). */
    final Counter chunkFailures;
    /** {@code shardvault.data.delete.retries}: shard delete attempts retried. */
    final Counter deleteRetries;

    DataPathMetrics(MeterRegistry registry) {
        writeStash = Timer.builder("shardvault.data.write").tag("mode", "stash")
                .publishPercentiles(0.5, 0.99).register(registry);
        writeDurable = Timer.builder("shardvault.data.write").tag("mode", "durable")
                .publishPercentiles(0.5, 0.99).register(registry);
        fallbackStashFull = registry.counter("shardvault.data.write.fallbacks", "reason", "stash_full");
        fallbackStashUnreachable = registry.counter("shardvault.data.write.fallbacks", "reason", "stash_unreachable");
        fallbackStashDown = registry.counter("shardvault.data.write.fallbacks", "reason", "stash_down");
        unassignedPodChunks = registry.counter("shardvault.data.write.durable.unassigned");
        bufferedRefused = registry.counter("shardvault.data.write.refused.buffered");
        missingShards = registry.counter("shardvault.data.write.missing.shards");
        writeFailures = registry.counter("shardvault.data.write.failures");
        stripeRead = Timer.builder("shardvault.data.read.stripe").publishPercentiles(0.5, 0.99).register(registry);
        decodes = registry.counter("shardvault.data.read.decodes");
        hedges = registry.counter("shardvault.data.read.hedges");
        chunkFailures = registry.counter("shardvault.data.read.chunk.failures");
        deleteRetries = registry.counter("shardvault.data.delete.retries");
    }
}
