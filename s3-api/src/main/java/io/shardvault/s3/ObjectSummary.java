package io.shardvault.s3;

import java.time.Instant;

/**
 * One key of a listing (its current version).
 *
 * @param key the key
 * @param size the byte count
 * @param etag the ETag without quotes
 * @param lastModified when written
 * @param owner the owner's canonical id, or {@code null} when not fetched
 * @param checksumAlgorithm the stored checksum's algorithm, or {@code null}
 * @param checksumType its type, or {@code null}
 */
public record ObjectSummary(String key, long size, String etag, Instant lastModified, String owner,
                           ChecksumAlgorithm checksumAlgorithm, ChecksumType checksumType) {
}
