package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of a delete.
 *
 * @param versionId the delete marker written, or the version removed; empty when nothing was there
 * @param deleteMarker whether {@code versionId} names a delete marker (written now, or removed now)
 * @param releasedFiles files no longer referenced after this delete, already queued for deletion
 */
public record DeleteResult(Optional<String> versionId, boolean deleteMarker, List<FileRef> releasedFiles) {
    public DeleteResult {
        releasedFiles = List.copyOf(releasedFiles);
    }
}
