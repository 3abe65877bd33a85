package io.shardvault.s3;

/**
 * What the server computed over a verified body.
 *
 * @param md5Hex the lowercase hex MD5 of the body: the ETag of a simple upload, or of a part
 * @param size the number of object bytes
 * @param checksum the checksum the client asked for (verified), or one the server chose to compute
 *     when the client named none; {@code null} when none
 */
public record BodyDigests(String md5Hex, long size, Checksum checksum) {
}
