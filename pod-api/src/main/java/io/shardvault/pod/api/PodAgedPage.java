package io.shardvault.pod.api;

import io.shardvault.common.ShardId;

import java.util.List;
import java.util.Optional;

/**
 * One page of a pod's shard listing with each shard's age ({@link PodOps#LIST_AGED}), in {@link ShardId#KEY_ORDER}.
 *
 * @param shards the shards of this page
 * @param next the exclusive resume token for the next page; empty on the last page
 */
public record PodAgedPage(List<AgedShard> shards, Optional<ShardId> next) {
    public PodAgedPage {
        shards = List.copyOf(shards);
    }
}
