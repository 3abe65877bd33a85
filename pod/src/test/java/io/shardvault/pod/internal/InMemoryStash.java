package io.shardvault.pod.internal;

import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcException;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;

/**
 * A stash in memory for unit tests of the sender and recovery: entries keyed like the real stash,
 * a switch to make it unreachable, and a hook that sees every purge as it arrives.
 */
final class InMemoryStash implements StashAccess {
    static final InetSocketAddress SERVER = InetSocketAddress.createUnresolved("stash", 1);

    private final ConcurrentSkipListMap<ShardId, byte[]> entries = new ConcurrentSkipListMap<>(ShardId.KEY_ORDER);
    private final ConcurrentSkipListMap<ShardId, Long> offsets = new ConcurrentSkipListMap<>(ShardId.KEY_ORDER);
    private volatile boolean down;
    private volatile Consumer<ShardId> onPurge = id -> { };
    private final List<ShardId> purged = new java.util.concurrent.CopyOnWriteArrayList<>();

    void put(ShardId id, long offset, byte[] data) {
        entries.put(id, data.clone());
        offsets.put(id, offset);
    }

    void setDown(boolean down) {
        this.down = down;
    }

    void onPurge(Consumer<ShardId> hook) {
        this.onPurge = hook;
    }

    boolean contains(ShardId id) {
        return entries.containsKey(id);
    }

    int size() {
        return entries.size();
    }

    List<ShardId> purged() {
        return purged;
    }

    private <T> CompletableFuture<T> unreachable() {
        return CompletableFuture.failedFuture(new RpcException(ErrorCode.UNREACHABLE, "stash is down"));
    }

    @Override
    public InetSocketAddress serverFor(int vaultId, int shardIndex) {
        return SERVER;
    }

    @Override
    public CompletableFuture<Page> list(int vaultId, int shardIndex, Optional<ShardId> after, int limit) {
        if (down) {
            return unreachable();
        }
        List<Entry> page = new ArrayList<>();
        Map<ShardId, byte[]> tail = after.isPresent() ? entries.tailMap(after.get(), false) : entries;
        for (Map.Entry<ShardId, byte[]> e : tail.entrySet()) {
            ShardId id = e.getKey();
            if (id.vaultId() != vaultId || id.shardIndex() != shardIndex) {
                continue;
            }
            if (page.size() == limit) {
                return CompletableFuture.completedFuture(new Page(page, Optional.of(page.get(limit - 1).id())));
            }
            page.add(new Entry(id, offsets.get(id), e.getValue().length, Crc32c.of(e.getValue())));
        }
        return CompletableFuture.completedFuture(new Page(page, Optional.empty()));
    }

    @Override
    public CompletableFuture<Copy> get(ShardId id) {
        if (down) {
            return unreachable();
        }
        byte[] data = entries.get(id);
        if (data == null) {
            return CompletableFuture.failedFuture(new RpcException(ErrorCode.NOT_FOUND, id + " not in stash"));
        }
        return CompletableFuture.completedFuture(new Copy(new Entry(id, offsets.get(id), data.length, Crc32c.of(data)),
                Unpooled.wrappedBuffer(data.clone())));
    }

    @Override
    public CompletableFuture<Void> purge(InetSocketAddress server, List<ShardId> ids) {
        if (down) {
            return unreachable();
        }
        for (ShardId id : ids) {
            onPurge.accept(id);
            entries.remove(id);
            offsets.remove(id);
            purged.add(id);
        }
        return CompletableFuture.completedFuture(null);
    }
}
