package io.shardvault.s3;

import java.util.Objects;

/**
 * A CopyObject. A copy onto itself is allowed only with {@link MetadataDirective#REPLACE}; the S3
 * layer checks that before calling the store.
 *
 * @param source the source and its conditions (check them with {@link CopySource#check})
 * @param bucket the destination bucket
 * @param key the destination key
 * @param directive whether the metadata is copied or replaced
 * @param metadata the new metadata when REPLACE; ignored when COPY
 * @param condition conditions on the destination
 * @param lock Object Lock headers for the new version
 * @param acl the canned ACL ({@code x-amz-acl}) of the new version; {@link CannedAcl#PRIVATE} when none
 */
public record CopyObjectRequest(CopySource source, String bucket, String key, MetadataDirective directive,
                                ObjectMetadata metadata, WriteCondition condition, ObjectLock lock, CannedAcl acl) {
    public CopyObjectRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(directive, "directive");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(acl, "acl");
    }
}
