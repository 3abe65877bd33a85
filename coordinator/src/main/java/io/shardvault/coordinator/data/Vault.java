package io.shardvault.coordinator.data;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A vault as the data paths see it: its id, its layout and its n pods, pod i holding shard i.
 * Immutable.
 *
 * @param vaultId the vault's id, part of every {@link io.shardvault.common.ShardId}
 * @param layout  how files are striped and coded
 * @param pods    n addresses, in shard order
 */
public record Vault(int vaultId, VaultLayout layout, List<InetSocketAddress> pods) {

    public Vault {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        Objects.requireNonNull(layout, "layout");
        pods = List.copyOf(pods);
        if (pods.size() != layout.n()) {
            throw new IllegalArgumentException("vault " + vaultId + " has layout " + layout + " (n=" + layout.n()
                    + ") but " + pods.size() + " pods");
        }
    }

    /** The pod holding shard {@code shardIndex}. */
    public InetSocketAddress pod(int shardIndex) {
        return pods.get(shardIndex);
    }

    /** This vault with pod {@code shardIndex} at {@code address} instead (a replacement's, say). */
    public Vault withPod(int shardIndex, InetSocketAddress address) {
        Objects.requireNonNull(address, "address");
        ArrayList<InetSocketAddress> moved = new ArrayList<>(pods);
        moved.set(shardIndex, address);
        return new Vault(vaultId, layout, moved);
    }
}
