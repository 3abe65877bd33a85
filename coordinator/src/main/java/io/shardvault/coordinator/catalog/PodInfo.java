package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * A storage pod: shard {@code shardIndex} of every file of vault {@code vaultId} lives on it.
 *
 * @param vaultId its vault
 * @param shardIndex which shard of each file it holds
 * @param host where its shard RPC listens
 * @param port that port
 */
public record PodInfo(int vaultId, int shardIndex, String host, int port) {
    public PodInfo {
        if (vaultId < 0 || shardIndex < 0 || shardIndex > 254) {
            throw new IllegalArgumentException("bad pod " + vaultId + "/" + shardIndex);
        }
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("bad port: " + port);
        }
    }
}
