package io.shardvault.s3;

/**
 * A part as CompleteMultipartUpload lists it.
 *
 * @param partNumber its number
 * @param etag the ETag the client has for it, without quotes
 * @param checksum the checksum the client listed (to be compared with the stored one), or {@code null}
 */
public record CompletedPart(int partNumber, String etag, Checksum checksum) {
}
