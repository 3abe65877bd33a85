package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Catalog,name=catalog}: this coordinator's catalog peer. */
@Description("This coordinator's catalog (Raft) peer: role, leader, term, applied index; snapshot and leadership.")
public interface CatalogMXBean {
    @Description("This peer's id.")
    String getPeerId();

    @Description("LEADER, FOLLOWER, CANDIDATE or UNKNOWN.")
    String getRole();

    @Description("The current leader's peer id, empty while none is known.")
    String getLeaderId();

    @Description("The current Raft term.")
    long getTerm();

    @Description("The last log index this peer applied.")
    long getAppliedIndex();

    @Description("The group's peers, id=host:port.")
    String[] getPeers();

    @Description("Takes a catalog snapshot (RocksDB checkpoint) on this peer now; returns the log index it covers.")
    long takeSnapshot();

    @Description("Hands the catalog leadership to another peer; returns the new leader once it leads.")
    String transferLeadership(@Description(value = "The peer id that should lead.", name = "peerId") String peerId);
}
