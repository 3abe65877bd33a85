package io.shardvault.pod.api;

import io.shardvault.common.ShardId;

/**
 * A slot a pod instance holds: shard {@code shardIndex} of every file of vault {@code vaultId}.
 * Written {@code vaultId:shardIndex}; a pod is told its slots by ASSIGN ({@link PodAssignment}).
 */
public record PodSlot(int vaultId, int shardIndex) {
    public PodSlot {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        if (shardIndex < 0 || shardIndex > ShardId.MAX_SHARD_INDEX) {
            throw new IllegalArgumentException("shardIndex must be in 0.." + ShardId.MAX_SHARD_INDEX + ": "
                    + shardIndex);
        }
    }

    /** Parses {@code vaultId:shardIndex}. */
    public static PodSlot parse(String text) {
        String[] parts = text.trim().split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException("a slot is vaultId:shardIndex, got '" + text + "'");
        }
        return new PodSlot(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
    }

    // equals and hashCode written out: pods run C1 code only, which calls a record's generated ones through
    // method-handle chains (seen in their profiles), and every write checks its slot.
    @Override
    public boolean equals(Object o) {
        return o instanceof PodSlot p && p.vaultId == vaultId && p.shardIndex == shardIndex;
    }

    @Override
    public int hashCode() {
        return 31 * vaultId + shardIndex;
    }

    @Override
    public String toString() {
        return vaultId + ":" + shardIndex;
    }
}
