package io.shardvault.coordinator.catalog;

/**
 * How a file was erasure coded: {@code dataShards} (k) data shards and {@code parityShards} (m)
 * parity shards, stripes of {@code k x chunkBytes} bytes.
 */
public record FileLayout(int dataShards, int parityShards, int chunkBytes) {
    public FileLayout {
        if (dataShards < 1 || parityShards < 0 || dataShards + parityShards > 255) {
            throw new IllegalArgumentException("bad k+m: " + dataShards + "+" + parityShards);
        }
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunkBytes must be >= 1: " + chunkBytes);
        }
    }
}
