package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * A stash server.
 *
 * @param stashId its stable name (rendezvous hashing is over these)
 * @param host where its shard RPC listens
 * @param port that port
 */
public record StashInfo(String stashId, String host, int port) {
    public StashInfo {
        Objects.requireNonNull(stashId, "stashId");
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("bad port: " + port);
        }
    }
}
