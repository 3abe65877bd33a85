package io.shardvault.stash.api;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;
import java.util.Objects;

/**
 * One chunk for {@link StashClient#putAll}: what a PUT carries.
 *
 * @param id the entry's key
 * @param offsetInShard where the chunk sits in its shard, {@code >= 0}
 * @param crc32c CRC32C of the chunk's readable bytes
 * @param chunk the bytes; ownership passes to {@link StashClient#putAll}
 */
public record StashPut(ShardId id, long offsetInShard, int crc32c, ByteBuf chunk) {
    public StashPut {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(chunk, "chunk");
    }
}
