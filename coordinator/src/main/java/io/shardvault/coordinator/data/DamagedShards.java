package io.shardvault.coordinator.data;

import io.shardvault.common.ErrorCode;

/**
 * Where reads report a shard of a file that a pod answered {@code CORRUPT} (its stored chunk fails its
 * CRC32C) or {@code NOT_FOUND} (no such shard) for: a degraded file, to queue for repair. The read
 * itself goes on around the shard (issue #20: reads never wait for a repair).
 *
 * <p>Called on the read's own threads, under its lock: implementations are thread-safe, never block
 * and never throw.
 */
@FunctionalInterface
public interface DamagedShards {
    /** Reports nothing (data paths without a repair queue: tests, tools). */
    DamagedShards NONE = (file, shard, cause) -> { };

    /**
     * Shard {@code shard} of {@code file} is damaged.
     *
     * @param cause {@link ErrorCode#CORRUPT} or {@link ErrorCode#NOT_FOUND}
     */
    void report(StoredFile file, int shard, ErrorCode cause);
}
