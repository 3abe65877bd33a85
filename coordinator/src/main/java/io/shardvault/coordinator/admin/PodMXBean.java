package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Pod,name=vault-V.pod-I}: one pod, and the operator's levers on it. */
@Description("One storage pod: its state (kept in the catalog, honoured by every coordinator) and its STATS.")
public interface PodMXBean {
    @Description("The pod's vault.")
    int getVaultId();

    @Description("The shard index the pod holds in its vault.")
    int getShardIndex();

    @Description("Where the pod's shard RPC listens, host:port.")
    String getAddress();

    @Description("UP, DRAINING or DOWN (operator state from the catalog).")
    String getState();

    @Description("Whether the pod answered a STATS call just now.")
    boolean isReachable();

    @Description("State, reachability, unflushed bytes, purge queue depth and age, free space, failed tomes and the"
            + " scrubber's pass and last complete pass (asked now).")
    PodView getStatus();

    @Description("Marks the pod DOWN: it gets no new shards (they are recorded missing, for repair). Returns the new state.")
    String markDown();

    @Description("Marks the pod UP: it gets new shards again. Returns the new state.")
    String markUp();

    @Description("Drains the pod: no new shards, its data stays readable. Returns the new state.")
    String drain();

    @Description("Tells the pod's process to retry its purge deliveries to the stash at once (skipping the back-off).")
    String retryPurgesNow();
}
