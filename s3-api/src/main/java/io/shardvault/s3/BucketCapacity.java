package io.shardvault.s3;

/**
 * What a bucket can still hold, as SOSAPI's {@code capacity.xml} reports it (issue #9): the
 * cluster's figures, or the bucket's quota when one is set.
 *
 * @param capacityBytes the bytes the bucket may hold in all ({@code used + available} at most)
 * @param availableBytes the bytes it can still take
 * @param usedBytes the bytes its versions hold now
 */
public record BucketCapacity(long capacityBytes, long availableBytes, long usedBytes) {
    public BucketCapacity {
        if (capacityBytes < 0 || availableBytes < 0 || usedBytes < 0) {
            throw new IllegalArgumentException("capacity figures must be >= 0: " + capacityBytes + ", "
                    + availableBytes + ", " + usedBytes);
        }
    }
}
