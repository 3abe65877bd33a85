package io.shardvault.stash.internal;

import io.shardvault.stash.api.StashEntryInfo;

/**
 * A decoded meta value: the entry, and where its chunk value is.
 *
 * @param location the chunk value's place in the chunk log, or null for an entry written before the
 *     chunk log (its chunk value is in RocksDB's default column family)
 */
record IndexEntry(StashEntryInfo info, ChunkLocation location) {
    boolean inChunkLog() {
        return location != null;
    }
}
