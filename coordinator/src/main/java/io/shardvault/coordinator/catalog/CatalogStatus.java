package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One catalog peer's view of its Raft group, for operators.
 *
 * @param peerId this peer
 * @param role LEADER, FOLLOWER, CANDIDATE (Ratis's role names), or UNKNOWN when the peer is not running
 * @param leaderId the leader it knows of
 * @param term its current term
 * @param appliedIndex the last log index its state machine applied
 * @param peers the group's peers as id=host:port
 */
public record CatalogStatus(String peerId, String role, Optional<String> leaderId, long term, long appliedIndex,
                            List<String> peers) {
    public CatalogStatus {
        Objects.requireNonNull(peerId, "peerId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(leaderId, "leaderId");
        peers = List.copyOf(peers);
    }
}
