package io.shardvault.s3;

import java.time.Instant;

/**
 * An uploaded part.
 *
 * @param partNumber its number
 * @param etag its ETag (hex MD5) without quotes
 * @param size its byte count
 * @param lastModified when uploaded
 * @param checksum its checksum in the upload's algorithm, or {@code null}
 */
public record PartInfo(int partNumber, String etag, long size, Instant lastModified, Checksum checksum) {
}
