package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of committing a version.
 *
 * @param versionId the new version's id ({@code "null"} when versioning is not enabled)
 * @param etag the version's ETag
 * @param lastModified the leader's commit time
 * @param releasedFiles files no longer referenced by anything after this write (a replaced
 *     {@code null} version, multipart parts left out of the completed object); they are already
 *     queued in {@link Catalog#pendingFileDeletions}, this list is informational
 */
public record PutResult(String versionId, String etag, Instant lastModified, List<FileRef> releasedFiles) {
    public PutResult {
        releasedFiles = List.copyOf(releasedFiles);
    }
}
