package io.shardvault.coordinator.data;

import java.util.List;
import java.util.Objects;

/**
 * A file as written: what the catalog records so that it can be read, repaired and deleted.
 * Immutable.
 *
 * @param vaultId       the vault holding its shards
 * @param fileId        its id in that vault
 * @param size          its length in bytes (reads trim the last stripe's padding with it)
 * @param layout        the layout it was written with
 * @param missingShards shard indexes that missed the write quorum (not acknowledged, or not durable
 *                      anywhere), ascending; a repair recreates them
 * @param stashed       whether its shards went to the stash too (a single-stripe file written in
 *                      buffered mode): until the pods flush, the stash may hold the only durable copy
 */
public record StoredFile(int vaultId, long fileId, long size, VaultLayout layout, List<Integer> missingShards,
                         boolean stashed) {

    public StoredFile {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
        Objects.requireNonNull(layout, "layout");
        missingShards = List.copyOf(missingShards);
    }
}
