package io.shardvault.stash.api;

import io.shardvault.common.ShardId;
import java.util.Objects;

/**
 * What the stash knows about one stored chunk, without its bytes.
 *
 * @param id the shard the chunk belongs to
 * @param offsetInShard where the chunk starts within its shard, {@code >= 0}
 * @param length the chunk's length in bytes, {@code >= 0}
 * @param crc32c the CRC32C of the chunk's bytes
 * @param writtenAtMillis when the stash stored it (its wall clock, epoch millis)
 */
public record StashEntryInfo(ShardId id, long offsetInShard, int length, int crc32c, long writtenAtMillis) {
    public StashEntryInfo {
        Objects.requireNonNull(id, "id");
        if (offsetInShard < 0) {
            throw new IllegalArgumentException("offsetInShard must be >= 0: " + offsetInShard);
        }
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0: " + length);
        }
    }
}
