package io.shardvault.s3;

import java.util.Objects;

/**
 * A PutObject.
 *
 * @param bucket the bucket
 * @param key the key (validated: 1..1024 UTF-8 bytes)
 * @param metadata what the client set
 * @param body the body, streamed (see {@link BodySource} for when it may be committed)
 * @param condition the conditional-write headers
 * @param lock Object Lock headers ({@link ObjectLock#NONE} when none)
 * @param acl the canned ACL ({@code x-amz-acl}) of the new version; {@link CannedAcl#PRIVATE} when none
 */
public record PutObjectRequest(String bucket, String key, ObjectMetadata metadata, BodySource body,
                               WriteCondition condition, ObjectLock lock, CannedAcl acl) {
    public PutObjectRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(acl, "acl");
    }
}
