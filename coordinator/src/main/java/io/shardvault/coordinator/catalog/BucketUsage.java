package io.shardvault.coordinator.catalog;

/**
 * A bucket and its usage, read together ({@link Catalog#bucketUsage}): what a write checks before its first
 * byte, the bucket's owner and its quota, in one catalog read.
 */
public record BucketUsage(Bucket bucket, Usage usage) {
}
