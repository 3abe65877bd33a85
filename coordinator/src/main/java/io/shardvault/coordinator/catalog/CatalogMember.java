package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * One peer of the catalog's Raft group as its leader sees it, for {@code admin catalog peers}.
 *
 * @param id the peer id
 * @param address its Raft address, host:port
 * @param role LEADER or FOLLOWER (LISTENER for a non-voting member)
 * @param commitIndex the last log index the leader knows this peer has committed; -1 when it knows none yet
 * @param lastContactMillis how long ago the leader last heard from it (0 for the leader itself); -1 when never
 */
public record CatalogMember(String id, String address, String role, long commitIndex, long lastContactMillis) {
    public CatalogMember {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(role, "role");
    }
}
