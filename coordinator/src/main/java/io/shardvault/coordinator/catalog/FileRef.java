package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Objects;

/**
 * One stored file: where its shards are and how they were cut.
 *
 * <p>Identity is {@code (vaultId, fileId)}: the catalog counts references to a file by that pair
 * (versions and multipart parts that point to it) and queues the file for deletion when the count
 * drops to zero.
 *
 * @param vaultId the vault holding its shards
 * @param fileId the file id, allocated by {@link Catalog#allocateFileIds} and never reused
 * @param size the file's length in bytes
 * @param layout its erasure-coding layout
 * @param missingShards shard indexes that missed the write quorum and await repair (ascending)
 */
public record FileRef(int vaultId, long fileId, long size, FileLayout layout, List<Integer> missingShards) {
    public FileRef {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
        Objects.requireNonNull(layout, "layout");
        missingShards = List.copyOf(missingShards);
    }

    /** Whether {@code other} names the same stored file. */
    public boolean sameFile(FileRef other) {
        return vaultId == other.vaultId && fileId == other.fileId;
    }
}
