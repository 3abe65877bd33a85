package io.shardvault.s3;

import java.time.Instant;

/**
 * An in-progress multipart upload.
 *
 * @param bucket the bucket
 * @param key the key
 * @param uploadId its id (opaque, URL-safe)
 * @param initiated when created
 * @param owner the owner's canonical id
 * @param checksumAlgorithm the parts' checksum algorithm, or {@code null}
 * @param checksumType the final checksum's type, or {@code null}
 */
public record UploadInfo(String bucket, String key, String uploadId, Instant initiated, String owner,
                         ChecksumAlgorithm checksumAlgorithm, ChecksumType checksumType) {
}
