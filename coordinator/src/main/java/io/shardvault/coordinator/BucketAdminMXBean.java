package io.shardvault.coordinator;

/**
 * Bucket administration over JMX ({@code io.shardvault:type=BucketAdmin,peer=<catalog peer id>}),
 * usable from JConsole. Each call is one catalog operation, waited for at most 30 s; a failure is
 * thrown as an {@link IllegalStateException} whose message names the catalog's error code.
 */
public interface BucketAdminMXBean {
    /**
     * Sets a bucket's quota in bytes, or removes it with 0. SOSAPI's capacity.xml then reports the
     * quota as the bucket's capacity (issue #9).
     */
    void setQuota(String bucket, long quotaBytes);

    /** The bucket's quota in bytes, 0 when it has none. */
    long getQuota(String bucket);

    /** The bytes the bucket's versions hold. */
    long getStoredBytes(String bucket);
}
