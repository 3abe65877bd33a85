package io.shardvault.pod.api;

import io.shardvault.common.ShardId;

import java.util.List;
import java.util.Optional;

/**
 * One page of a pod's shard listing, in {@link ShardId#KEY_ORDER}.
 *
 * @param ids the shard ids of this page
 * @param next the exclusive resume token for the next page; empty on the last page
 */
public record PodPage(List<ShardId> ids, Optional<ShardId> next) {
    public PodPage {
        ids = List.copyOf(ids);
    }
}
