package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * A pod's operator-set state as the catalog records it.
 *
 * @param vaultId the pod's vault
 * @param shardIndex the pod's shard index in it
 * @param state its state
 * @param since the leader's time of the change (epoch when never changed)
 */
public record PodStatus(int vaultId, int shardIndex, PodState state, Instant since) {
    public PodStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
    }
}
