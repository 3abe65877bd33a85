package io.shardvault.coordinator.catalog.internal;

import java.time.Instant;

/**
 * What an applying write knows besides the store: its transaction, its log position (version and upload
 * ids come from it) and the leader's time written into the entry (never a clock, so every peer computes
 * the same state).
 */
record Entry(RocksCatalogStore.Txn txn, long index, Instant time) {
}
