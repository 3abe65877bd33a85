package io.shardvault.s3;

import java.time.Instant;

/**
 * The outcome of a committed write.
 *
 * @param etag the ETag without quotes
 * @param versionId the new version's id, or {@code null} when the bucket is not versioned
 * @param lastModified the commit time
 * @param checksum the stored checksum, or {@code null}
 * @param size the object's size
 */
public record WriteResult(String etag, String versionId, Instant lastModified, Checksum checksum, long size) {
}
