package io.shardvault.stash.internal;

/**
 * Where a chunk value is in a partition's {@link ChunkLog}: the segment's number and the offset of
 * its record's header in the segment file.
 */
public record ChunkLocation(long segment, long position) {
}
