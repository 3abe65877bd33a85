package io.shardvault.coordinator.catalog;

/**
 * Stored bytes, for SOSAPI's capacity.xml, quotas and operators.
 *
 * @param storedBytes for a bucket: the sum of its versions' sizes (what its owner stores); for the
 *     cluster: the sum of the sizes of live files (each shared file once)
 * @param objectVersions for a bucket: its versions that hold data (delete markers excluded); for
 *     the cluster: its live files
 * @param capacityBytes the sum of the registered vaults' capacities
 */
public record Usage(long storedBytes, long objectVersions, long capacityBytes) {
}
