package io.shardvault.s3;

/** A bucket's versioning state (issue #9). */
public enum VersioningStatus {
    /** Never enabled: GetBucketVersioning answers an empty configuration. */
    UNVERSIONED,
    ENABLED,
    SUSPENDED
}
