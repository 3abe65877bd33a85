package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.StashEntryInfo;
import io.shardvault.stash.StashPage;
import io.shardvault.stash.StashStats;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stash's operations in plain Java, free of wire formats: writes go through the
 * {@link GroupCommitter}, reads straight to the {@link ShardStore}. Failures the caller can act on
 * are {@link RpcException}s with their stable code; storage failures are
 * {@link ShardStoreException}s.
 *
 * <p>Thread-safe. Reads run on the calling thread (an RPC worker); writes complete on the
 * committer thread.
 */
public final class StashService {
    private static final Logger LOG = LoggerFactory.getLogger(StashService.class);

    private final ShardStore store;
    private final GroupCommitter committer;
    private final Occupancy occupancy;
    private final StashMetrics metrics;
    private final Clock clock;
    private final long capacityBytes;
    private final int maxListEntries;

    /** A stored entry read back and checked: its info and its chunk value (chunk bytes after the header). */
    public record CheckedChunk(StashEntryInfo info, byte[] chunkValue) {
        /** Where the chunk bytes start in {@link #chunkValue()}. */
        public int chunkOffset() {
            return EntryFormat.CHUNK_HEADER_BYTES;
        }
    }

    public StashService(ShardStore store, GroupCommitter committer, Occupancy occupancy, StashMetrics metrics,
                        Clock clock, long capacityBytes, int maxListEntries) {
        this.store = store;
        this.committer = committer;
        this.occupancy = occupancy;
        this.metrics = metrics;
        this.clock = clock;
        this.capacityBytes = capacityBytes;
        this.maxListEntries = maxListEntries;
    }

    /**
     * Stores {@code chunk}'s readable bytes (copied; the caller keeps ownership). Completes once
     * durable; fails {@code CHECKSUM_MISMATCH} when the bytes do not match {@code crc32c}.
     */
    public CompletableFuture<Void> put(ShardId id, long offsetInShard, int crc32c, ByteBuf chunk) {
        int actual = Crc32c.of(chunk);
        if (actual != crc32c) {
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.CHECKSUM_MISMATCH, id + ": "
                    + chunk.readableBytes() + " bytes arrived with CRC32C " + Crc32c.format(actual) + ", the request says "
                    + Crc32c.format(crc32c)));
        }
        StashEntryInfo info = new StashEntryInfo(id, offsetInShard, chunk.readableBytes(), crc32c, clock.millis());
        return committer.put(info, EntryFormat.encodeChunkValue(info, chunk, chunk.alloc()));
    }

    /**
     * Reads an entry and checks its CRC32C.
     *
     * @throws RpcException {@code NOT_FOUND} when absent, {@code CORRUPT} when its bytes fail a check
     * @throws ShardStoreException when the store fails otherwise
     */
    public CheckedChunk get(ShardId id) throws RpcException, ShardStoreException {
        try {
            Optional<byte[]> value = store.chunkValue(id);
            if (value.isEmpty()) {
                throw new RpcException(ErrorCode.NOT_FOUND, "the stash holds no entry for " + id);
            }
            StashEntryInfo info = EntryFormat.decodeChunkValue(id, value.get());
            return new CheckedChunk(info, value.get());
        } catch (CorruptEntryException e) {
            metrics.corrupt();
            LOG.error("stash entry corrupt, not served: {}", e.getMessage());
            throw new RpcException(ErrorCode.CORRUPT, e.getMessage(), e);
        }
    }

    /** Deletes entries (unknown ids are fine); completes with how many existed, once durable. */
    public CompletableFuture<Integer> purge(List<ShardId> ids) {
        return committer.purge(ids);
    }

    /** One page of a pod slot, at most {@code min(limit, maxListEntries)} entries. */
    public StashPage list(int vaultId, int shardIndex, Optional<ShardId> after, int limit)
            throws RpcException, ShardStoreException {
        if (after.isPresent() && (after.get().vaultId() != vaultId || after.get().shardIndex() != shardIndex)) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "after=" + after.get() + " is not in pod slot " + vaultId
                    + "/" + shardIndex);
        }
        int pageSize = Math.min(limit, maxListEntries);
        List<StashEntryInfo> found;
        try {
            found = store.listSlot(vaultId, shardIndex, after, pageSize + 1);
        } catch (CorruptEntryException e) {
            metrics.corrupt();
            throw new RpcException(ErrorCode.CORRUPT, e.getMessage(), e);
        }
        if (found.size() <= pageSize) {
            return new StashPage(found, Optional.empty());
        }
        List<StashEntryInfo> page = found.subList(0, pageSize);
        return new StashPage(page, Optional.of(page.get(pageSize - 1).id()));
    }

    public StashStats stats() {
        return new StashStats(occupancy.entries(), occupancy.bytes(), capacityBytes,
                StashMetrics.ageMillis(occupancy, clock));
    }
}
