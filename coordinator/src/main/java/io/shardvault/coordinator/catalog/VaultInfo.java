package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Objects;

/**
 * A vault: a group of {@code k + m} pods holding every file written to it.
 *
 * @param vaultId its id
 * @param layout how its files are coded
 * @param capacityBytes its usable capacity in bytes (for placement and SOSAPI capacity)
 * @param pods its registered pods, by shard index (may be incomplete while pods register)
 */
public record VaultInfo(int vaultId, FileLayout layout, long capacityBytes, List<PodInfo> pods) {
    public VaultInfo {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        Objects.requireNonNull(layout, "layout");
        pods = List.copyOf(pods);
    }
}
