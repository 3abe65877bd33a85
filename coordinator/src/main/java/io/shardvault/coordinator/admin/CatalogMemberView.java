package io.shardvault.coordinator.admin;

import io.shardvault.coordinator.catalog.CatalogMember;
import javax.management.openmbean.CompositeData;

/** One peer of the catalog group as its leader sees it ({@link CatalogMember}). Immutable. */
public final class CatalogMemberView {
    private final String id;
    private final String address;
    private final String role;
    private final long commitIndex;
    private final long lastContactMillis;

    public CatalogMemberView(String id, String address, String role, long commitIndex, long lastContactMillis) {
        this.id = id;
        this.address = address;
        this.role = role;
        this.commitIndex = commitIndex;
        this.lastContactMillis = lastContactMillis;
    }

    public static CatalogMemberView of(CatalogMember m) {
        return new CatalogMemberView(m.id(), m.address(), m.role(), m.commitIndex(), m.lastContactMillis());
    }

    public String getId() {
        return id;
    }

    /** host:port of its Raft endpoint. */
    public String getAddress() {
        return address;
    }

    /** LEADER, FOLLOWER or LISTENER. */
    public String getRole() {
        return role;
    }

    /** The last log index the leader knows it committed; -1 when unknown. */
    public long getCommitIndex() {
        return commitIndex;
    }

    /** How long ago the leader last heard from it, in ms; 0 for the leader, -1 when never. */
    public long getLastContactMillis() {
        return lastContactMillis;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static CatalogMemberView from(CompositeData cd) {
        return new CatalogMemberView((String) cd.get("id"), (String) cd.get("address"), (String) cd.get("role"),
                (Long) cd.get("commitIndex"), (Long) cd.get("lastContactMillis"));
    }
}
