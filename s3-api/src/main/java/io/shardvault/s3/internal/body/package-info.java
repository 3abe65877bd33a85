/**
 * Request bodies: aws-chunked decoding with chunk and trailer signature checks, integrity checks
 * (Content-MD5, x-amz-checksum-*, the signed payload hash, declared lengths), and the
 * {@link io.shardvault.s3.BodySource} a store pulls from. Plain Java over ByteBufs.
 */
package io.shardvault.s3.internal.body;
