package io.shardvault.coordinator.store;

import java.util.concurrent.CompletableFuture;

/**
 * How many more object bytes the cluster can store, for SOSAPI's capacity.xml (issue #9). Figures
 * are of object bytes, after erasure-coding overhead. Implementations are thread-safe and never
 * fail for a node that does not answer: they leave it out and report what they know.
 */
@FunctionalInterface
public interface FreeSpace {
    /** The bytes of objects the cluster can still take (may be a few seconds stale). */
    CompletableFuture<Long> availableBytes();
}
