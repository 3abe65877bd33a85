package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import io.shardvault.stash.api.StashStats;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stash's operations in plain Java, free of wire formats: each id goes to its partition
 * ({@link StashPartitions}); writes through the partition's {@link GroupCommitter}, reads straight
 * to its {@link ShardStore}. A PURGE spanning partitions completes when every partition's share
 * is durable; a LIST merges the partitions' pages of the slot in key order. Failures the caller can act on
 * are {@link RpcException}s with their stable code; storage failures are
 * {@link ShardStoreException}s.
 *
 * <p>Thread-safe. Reads run on the calling thread (an RPC worker); writes complete on the
 * committer thread.
 */
public final class StashService {
    private static final Logger LOG = LoggerFactory.getLogger(StashService.class);

    private final StashPartitions partitions;
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

    public StashService(StashPartitions partitions, Occupancy occupancy, StashMetrics metrics,
                        Clock clock, long capacityBytes, int maxListEntries) {
        this.partitions = partitions;
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
        return partitions.of(id).committer().put(info, EntryFormat.encodeChunkValue(info, chunk, chunk.alloc()));
    }

    /**
     * Reads an entry and checks its CRC32C.
     *
     * @throws RpcException {@code NOT_FOUND} when absent, {@code CORRUPT} when its bytes fail a check
     * @throws ShardStoreException when the store fails otherwise
     */
    public CheckedChunk get(ShardId id) throws RpcException, ShardStoreException {
        try {
            Optional<byte[]> value = partitions.of(id).store().chunkValue(id);
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

    /**
     * Deletes entries (unknown ids are fine); completes with how many existed, once every
     * partition's share is durable. Fails if any share fails: the pod retries the whole batch,
     * and purging is idempotent.
     */
    public CompletableFuture<Integer> purge(List<ShardId> ids) {
        Map<StashPartitions.Partition, List<ShardId>> byPartition = new LinkedHashMap<>();
        for (ShardId id : ids) {
            byPartition.computeIfAbsent(partitions.of(id), p -> new ArrayList<>()).add(id);
        }
        List<CompletableFuture<Integer>> parts = byPartition.entrySet().stream()
                .map(e -> e.getKey().committer().purge(e.getValue()))
                .toList();
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(all -> parts.stream().mapToInt(CompletableFuture::join).sum());
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
            found = listMerged(vaultId, shardIndex, after, pageSize + 1);
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

    /** The first {@code limit} entries of the slot after {@code after} over every partition, in key order. */
    private List<StashEntryInfo> listMerged(int vaultId, int shardIndex, Optional<ShardId> after, int limit)
            throws ShardStoreException {
        if (partitions.count() == 1) {
            return partitions.all().get(0).store().listSlot(vaultId, shardIndex, after, limit);
        }
        List<StashEntryInfo> merged = new ArrayList<>();
        for (StashPartitions.Partition partition : partitions.all()) {
            merged.addAll(partition.store().listSlot(vaultId, shardIndex, after, limit));
        }
        // Within one slot the key order is the order of the file id as an unsigned number (ShardId.encode).
        merged.sort(Comparator.comparing(info -> info.id().fileId(), Long::compareUnsigned));
        return merged.size() <= limit ? merged : merged.subList(0, limit);
    }

    public StashStats stats() {
        return new StashStats(occupancy.entries(), occupancy.bytes(), capacityBytes,
                StashMetrics.ageMillis(occupancy, clock));
    }
}
