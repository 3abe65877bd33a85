package io.shardvault.coordinator.catalog;

/**
 * Stored bytes, for SOSAPI's capacity.xml, quotas and operators.
 *
 * @param storedBytes for a bucket: the sum of its versions' sizes (what its owner stores); for the
 *     cluster: the sum of the sizes of live files (each shared file once)
 * @param objectVersions for a bucket: its versions that hold data (delete markers excluded); for
 *     the cluster: its live files
 * @param capacityBytes the sum of the registered vaults' capacities
 * @param quotaBytes for a bucket: its quota ({@link Catalog#setBucketQuota}), 0 when it has none;
 *     for the cluster: 0
 */
public record Usage(long storedBytes, long objectVersions, long capacityBytes, long quotaBytes) {
    public Usage {
        if (quotaBytes < 0) {
            throw new IllegalArgumentException("quotaBytes must be >= 0: " + quotaBytes);
        }
    }

    /** A usage without a quota. */
    public Usage(long storedBytes, long objectVersions, long capacityBytes) {
        this(storedBytes, objectVersions, capacityBytes, 0);
    }
}
