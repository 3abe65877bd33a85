package io.shardvault.coordinator.catalog;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One catalog peer running inside a coordinator: a Ratis server whose state machine keeps the
 * catalog in RocksDB, plus a Ratis client through which this coordinator reads and writes.
 *
 * <pre>
 *   start() ──▶ RUNNING ──close()──▶ CLOSED
 * </pre>
 *
 * <p>A peer started on an existing data directory rejoins its group and catches up from its log,
 * or by snapshot install when the leader has purged what it misses. The data directory is
 * stamped with the group id and peer id; a mismatch refuses to start.
 *
 * <p>Thread-safe. Durability: a write is acknowledged once a majority has it in its fsynced Raft
 * log and this peer's leader has applied it.
 */
public interface CatalogServer extends AutoCloseable {

    /** This coordinator's view of the catalog. Owned by the server: do not close it. */
    Catalog catalog();

    /** This peer's id. */
    String peerId();

    /** The current leader's peer id, when known. */
    Optional<String> leaderId();

    /** Whether this peer is the leader now. */
    boolean isLeader();

    /** This peer's current Raft term; -1 when it cannot tell (closed). */
    long term();

    /** This peer's role, term, applied index and view of the group. */
    CatalogStatus status();

    /**
     * Makes this peer take a snapshot now (a RocksDB checkpoint) and returns the log index it
     * covers. Fails with an {@link java.io.IOException} when Ratis refuses (nothing applied yet, say).
     */
    CompletableFuture<Long> takeSnapshot();

    /**
     * Asks the group to hand leadership to {@code peerId} (one of the group's peers); completes once
     * that peer leads, fails when it does not within the election timeout.
     */
    CompletableFuture<Void> transferLeadership(String peerId);

    /**
     * The group's peers as its leader sees them: role, commit index, last contact. Fails with a
     * {@link CatalogException} (UNAVAILABLE) while no leader is known.
     */
    CompletableFuture<List<CatalogMember>> members();

    /**
     * Adds {@code peer} to the group (Ratis {@code setConfiguration}): the leader first catches it up,
     * then commits the new configuration. The peer must be running, started with the group's peers and
     * itself in {@code catalog.peers}. Completes with the new membership; fails with an
     * {@link IllegalArgumentException} for a peer id or address the group already has, and a
     * {@link CatalogException} when the peer does not catch up in time or the group changed meanwhile.
     */
    CompletableFuture<List<CatalogMember>> addPeer(CatalogConfig.Peer peer);

    /**
     * Removes peer {@code peerId} from the group. Refuses (an {@link IllegalArgumentException}) an unknown
     * peer, the last peer, and a removal the rest could not commit: the change must be acknowledged by a
     * majority of the present configuration, so at least that many of the peers that stay must be answering
     * the leader. Completes with the new membership; the removed peer's process may then be stopped.
     */
    CompletableFuture<List<CatalogMember>> removePeer(String peerId);

    /** Stops the client and the peer; the data directory stays usable for a restart. */
    @Override
    void close() throws IOException;
}
