package io.shardvault.stash.internal;

import io.shardvault.common.ShardId;
import io.shardvault.stash.api.StashPlacement;
import java.util.List;

/**
 * The partitions of one stash server. Each is one RocksDB database ({@link ShardStore}) with its own
 * WAL and its own {@link GroupCommitter}, so that as many batches are written and synced at once
 * as there are partitions: one committer's writer thread (WAL record with its CRC, memtable insert)
 * is what bounds a single database's throughput, well before the disk does (docs/STASH.md). An
 * entry lives in the partition of its file ({@link StashPlacement#partitionOf}).
 *
 * <p>Immutable and thread-safe. {@link #close()} stops every committer (which writes and syncs what
 * is queued) before closing any database.
 */
public final class StashPartitions implements AutoCloseable {
    private final List<Partition> partitions;

    /** One partition: its database and the committer that alone writes to it. */
    public record Partition(ShardStore store, GroupCommitter committer) {
    }

    /** @param partitions in partition order: the i-th holds the ids {@link StashPlacement#partitionOf} maps to i */
    public StashPartitions(List<Partition> partitions) {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a stash needs at least one partition");
        }
        this.partitions = List.copyOf(partitions);
    }

    /** The partition that holds {@code id}. */
    public Partition of(ShardId id) {
        return partitions.get(StashPlacement.partitionOf(id, partitions.size()));
    }

    public List<Partition> all() {
        return partitions;
    }

    public int count() {
        return partitions.size();
    }

    public void startCommitters() {
        partitions.forEach(p -> p.committer().start());
    }

    @Override
    public void close() {
        partitions.forEach(p -> p.committer().close());
        partitions.forEach(p -> p.store().close());
    }
}
