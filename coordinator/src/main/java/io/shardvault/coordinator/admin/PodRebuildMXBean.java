package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/**
 * {@code io.shardvault:type=PodRebuild,name=podRebuild}: the rebuild of a lost or replaced pod (issue #20,
 * section 3). A job is a catalog row: it is started here on any coordinator, run and checkpointed by the
 * one whose catalog peer leads, and resumed by the next leader after a restart.
 */
@Description("Pod rebuilds: recreate every shard of a pod from the others, onto the pod at its address now.")
public interface PodRebuildMXBean {
    @Description("Whether this coordinator runs a pod rebuild job now (it runs on the catalog leader).")
    boolean isRebuildingHere();

    @Description("Every pod rebuild job the catalog keeps (running and done), with its progress, rate and ETA.")
    PodRebuildView[] getJobs();

    @Description("Starts the rebuild of a pod onto its address in the vault map: returns the new job. Refused while"
            + " a job of that pod runs.")
    PodRebuildView rebuild(@Description(value = "The pod's vault.", name = "vaultId") int vaultId,
                           @Description(value = "The pod's shard index.", name = "shardIndex") int shardIndex,
                           @Description(value = "Only count the shards the pod lacks; write nothing.",
                                   name = "checkOnly") boolean checkOnly);

    @Description("Starts the decommission of a pod: a job that copies its shards from it (it keeps serving) onto its"
            + " replacement at host:port, which must answer. Its DONE switches the vault map to the replacement on"
            + " every coordinator (no restart); then run a rebuild of the pod to catch up. Refused while a job of"
            + " that pod runs.")
    PodRebuildView decommission(@Description(value = "The pod's vault.", name = "vaultId") int vaultId,
                                @Description(value = "The pod's shard index.", name = "shardIndex") int shardIndex,
                                @Description(value = "The replacement pod's address, host:port.", name = "to")
                                String to);
}
