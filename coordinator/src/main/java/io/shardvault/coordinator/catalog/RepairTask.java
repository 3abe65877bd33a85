package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A degraded file queued for repair (issue #20, section 2): its shards to rebuild from k good ones and
 * write durably to their pods. One entry per file; enqueuing it again adds shards to it.
 *
 * @param vaultId the file's vault
 * @param fileId the file
 * @param shards the shard indexes to repair, ascending, none twice
 * @param reason why it was first queued (for example {@code missing-at-write}, {@code corrupt-on-read})
 * @param enqueuedAt the leader time of the first enqueue: the entry's age does not restart when shards are added
 */
public record RepairTask(int vaultId, long fileId, List<Integer> shards, String reason, Instant enqueuedAt) {
    public RepairTask {
        shards = List.copyOf(shards);
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
    }
}
