package io.shardvault.coordinator.catalog;

/**
 * A file's identity: its vault and its id there (ids are never reused within a vault).
 *
 * @param vaultId the vault, {@code >= 0}
 * @param fileId the file id, {@code >= 0}
 */
public record FileKey(int vaultId, long fileId) {
    public FileKey {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        if (fileId < 0) {
            throw new IllegalArgumentException("fileId must be >= 0: " + fileId);
        }
    }
}
