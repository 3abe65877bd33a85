package io.shardvault.coordinator.admin;

import java.util.List;

/** The catalog peer of this coordinator and its view of the Raft group. Immutable. */
public final class CatalogView {
    private final String peerId;
    private final String role;
    private final String leaderId;
    private final long term;
    private final long appliedIndex;
    private final List<String> peers;

    public CatalogView(String peerId, String role, String leaderId, long term, long appliedIndex, List<String> peers) {
        this.peerId = peerId;
        this.role = role;
        this.leaderId = leaderId;
        this.term = term;
        this.appliedIndex = appliedIndex;
        this.peers = List.copyOf(peers);
    }

    public String getPeerId() {
        return peerId;
    }

    /** LEADER, FOLLOWER, CANDIDATE or UNKNOWN. */
    public String getRole() {
        return role;
    }

    /** The leader's peer id, empty while none is known. */
    public String getLeaderId() {
        return leaderId;
    }

    public long getTerm() {
        return term;
    }

    public long getAppliedIndex() {
        return appliedIndex;
    }

    /** id=host:port per peer. */
    public List<String> getPeers() {
        return peers;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static CatalogView from(javax.management.openmbean.CompositeData cd) {
        return new CatalogView((String) cd.get("peerId"),
                (String) cd.get("role"),
                (String) cd.get("leaderId"),
                (Long) cd.get("term"),
                (Long) cd.get("appliedIndex"),
                java.util.List.of((String[]) cd.get("peers")));
    }
}
