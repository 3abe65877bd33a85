package io.shardvault.s3;

import java.util.Objects;

/**
 * A CreateMultipartUpload.
 *
 * @param bucket the bucket
 * @param key the key
 * @param metadata what the final object will carry
 * @param checksumAlgorithm the parts' checksum algorithm, or {@code null}
 * @param checksumType COMPOSITE or FULL_OBJECT (only for CRCs); {@code null} when no algorithm
 * @param lock Object Lock headers for the final object
 * @param acl the canned ACL ({@code x-amz-acl}) of the completed object; {@link CannedAcl#PRIVATE} when none
 */
public record CreateMultipartUploadRequest(String bucket, String key, ObjectMetadata metadata,
                                           ChecksumAlgorithm checksumAlgorithm, ChecksumType checksumType,
                                           ObjectLock lock, CannedAcl acl) {
    public CreateMultipartUploadRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(acl, "acl");
    }
}
