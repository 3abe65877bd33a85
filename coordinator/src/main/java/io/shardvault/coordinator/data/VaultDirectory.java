package io.shardvault.coordinator.data;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Where the data paths find vaults: the one to write a new file to, and the one a stored file
 * lives in. v1 clusters have one vault; the seam is here so that choosing among several (by free
 * space, by load) changes nothing else. A vault's pod addresses may change while the coordinator
 * runs (a decommission switches a pod to its replacement): every holder asks the directory each time,
 * never keeps a {@link Vault} beyond one operation. Implementations are thread-safe.
 */
public interface VaultDirectory {

    /** The vault for a new file of {@code size} bytes, or of a size not known yet when -1. */
    Vault vaultForWrite(long size) throws IOException;

    /** The vault with this id, if known. */
    Optional<Vault> vault(int vaultId);

    /** Every vault as the directory has it now. */
    List<Vault> all();

    /**
     * Re-reads the map now, after a change this coordinator made (a decommission it ran to the end);
     * completes when the directory gives the new map. A fixed directory has nothing to re-read.
     */
    default CompletableFuture<Void> refresh() {
        return CompletableFuture.completedFuture(null);
    }

    /** A fixed set of vaults; new files go to the first one. */
    static VaultDirectory of(List<Vault> vaults) {
        if (vaults.isEmpty()) {
            throw new IllegalArgumentException("a vault directory needs at least one vault");
        }
        List<Vault> copy = List.copyOf(vaults);
        Map<Integer, Vault> byId = copy.stream().collect(Collectors.toMap(Vault::vaultId, Function.identity()));
        return new VaultDirectory() {
            @Override
            public Vault vaultForWrite(long size) {
                return copy.get(0);
            }

            @Override
            public Optional<Vault> vault(int vaultId) {
                return Optional.ofNullable(byId.get(vaultId));
            }

            @Override
            public List<Vault> all() {
                return copy;
            }
        };
    }
}
