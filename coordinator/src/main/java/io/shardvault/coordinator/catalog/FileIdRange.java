package io.shardvault.coordinator.catalog;

/**
 * File ids {@code [first, first + count)} of one vault, handed out once: no later allocation, on
 * any leader, overlaps them.
 */
public record FileIdRange(int vaultId, long first, int count) {
    public FileIdRange {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1: " + count);
        }
    }

    /** The {@code i}-th id of the range. */
    public long get(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException(i);
        }
        return first + i;
    }
}
