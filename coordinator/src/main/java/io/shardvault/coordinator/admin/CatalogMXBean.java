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

    @Description("The group's peers as its leader sees them: role, commit index, how long since it heard from each.")
    CatalogMemberView[] getMembers();

    @Description("Adds a catalog peer (its coordinator must be running, with the group's peers and itself in"
            + " catalog.peers); returns the new membership once the leader has caught it up and committed the change.")
    CatalogMemberView[] addPeer(@Description(value = "The new peer as id=host:port.", name = "peer") String peer);

    @Description("Removes a catalog peer; refuses the last peer, and a removal the peers that stay could not"
            + " commit. Returns the new membership; the removed peer's coordinator may then be stopped.")
    CatalogMemberView[] removePeer(@Description(value = "The peer id to remove.", name = "peerId") String peerId);

    @Description("Registers a cluster map (the text of a file like conf/cluster-map.conf: coordinator.vault.*,"
            + " coordinator.stash.servers, catalog.peers) in the catalog, in one command, and checks its catalog peers"
            + " against the group's. Again with the same map: nothing changes. A map that disagrees with the"
            + " catalog's is refused, naming each difference. Returns what was done, a line each.")
    String[] initMap(@Description(value = "The cluster map file's text (HOCON).", name = "map") String map);

    @Description("Hands the catalog leadership to another peer; returns the new leader once it leads.")
    String transferLeadership(@Description(value = "The peer id that should lead.", name = "peerId") String peerId);
}
