package io.shardvault.coordinator.repair;

import io.shardvault.common.ShardId;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The shards one pod holds of one slot (vault, shard index), read page by page from its LIST in file id
 * order, for a walk that asks about ever larger file ids: {@link #has} answers without a call per
 * file. A shard written after its page was read is not seen (the walk then rebuilds it again, which is
 * harmless). Not thread-safe: one walk's.
 */
final class PodRebuildCursor {
    static final int PAGE = 1000;

    private final PodClient pods;
    private final InetSocketAddress pod;
    private final int vaultId;
    private final int shardIndex;
    private final Duration callTimeout;
    private List<ShardId> page = List.of();
    private int at;
    private Optional<ShardId> next;
    private boolean endOfSlot;

    /** A cursor over the slot's shards of files after {@code afterFileId} (-1: all). */
    PodRebuildCursor(PodClient pods, InetSocketAddress pod, int vaultId, int shardIndex, long afterFileId,
                     Duration callTimeout) {
        this.pods = pods;
        this.pod = pod;
        this.vaultId = vaultId;
        this.shardIndex = shardIndex;
        this.callTimeout = callTimeout;
        this.next = afterFileId >= 0 ? Optional.of(new ShardId(vaultId, afterFileId, shardIndex)) : beforeSlot();
    }

    /** The last key before the slot's first (the listing's resume token is exclusive). */
    private Optional<ShardId> beforeSlot() {
        if (shardIndex > 0) {
            return Optional.of(new ShardId(vaultId, Long.MAX_VALUE, shardIndex - 1));
        }
        if (vaultId > 0) {
            return Optional.of(new ShardId(vaultId - 1, Long.MAX_VALUE, ShardId.MAX_SHARD_INDEX));
        }
        return Optional.empty();
    }

    /** Whether the pod listed the shard of {@code fileId}; each call must ask about a larger file id than the last. */
    boolean has(long fileId) throws IOException, InterruptedException {
        while (true) {
            while (at < page.size()) {
                ShardId id = page.get(at);
                if (id.vaultId() != vaultId || id.shardIndex() != shardIndex) {
                    endOfSlot = true;
                    return false;
                }
                if (id.fileId() >= fileId) {
                    return id.fileId() == fileId;
                }
                at++;
            }
            if (endOfSlot || !fetch()) {
                return false;
            }
        }
    }

    /** Reads the next page; false at the end of the pod's listing. */
    private boolean fetch() throws IOException, InterruptedException {
        if (page.size() > 0 && next.isEmpty()) {
            endOfSlot = true;
            return false;
        }
        PodPage p = Bounded.await(pods.list(pod, next, PAGE), callTimeout.multipliedBy(2), "list of pod " + pod);
        page = p.ids();
        at = 0;
        next = p.next();
        if (page.isEmpty()) {
            endOfSlot = true;
            return false;
        }
        return true;
    }
}
