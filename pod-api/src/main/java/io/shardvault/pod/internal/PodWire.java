package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.pod.PodPage;
import io.shardvault.pod.PodStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Encoding and decoding of the pod ops' headers and payloads ({@link io.shardvault.pod.PodOps}). Stateless. */
public final class PodWire {
    private PodWire() {
    }

    public static ByteBuf writeHeader(ShardId id, long offsetInShard, int crc32c, int mode) {
        ByteBuf h = Unpooled.buffer(ShardId.ENCODED_LENGTH + 13);
        id.writeTo(h);
        h.writeLong(offsetInShard).writeInt(crc32c).writeByte(mode);
        return h;
    }

    public static ByteBuf readHeader(ShardId id, long offset, int length) {
        ByteBuf h = Unpooled.buffer(ShardId.ENCODED_LENGTH + 12);
        id.writeTo(h);
        h.writeLong(offset).writeInt(length);
        return h;
    }

    public static ByteBuf idHeader(ShardId id) {
        ByteBuf h = Unpooled.buffer(ShardId.ENCODED_LENGTH);
        id.writeTo(h);
        return h;
    }

    public static ByteBuf listHeader(Optional<ShardId> after, int limit) {
        ByteBuf h = Unpooled.buffer(1 + ShardId.ENCODED_LENGTH + 4);
        h.writeBoolean(after.isPresent());
        after.ifPresent(id -> id.writeTo(h));
        h.writeInt(limit);
        return h;
    }

    /** The LIST response: header {@code hasNext [next]}, payload the ids. */
    public static ByteBuf[] listResponse(List<ShardId> ids, Optional<ShardId> next, ByteBufAllocator alloc) {
        ByteBuf header = alloc.heapBuffer(1 + ShardId.ENCODED_LENGTH);
        header.writeBoolean(next.isPresent());
        next.ifPresent(id -> id.writeTo(header));
        ByteBuf payload = alloc.heapBuffer(ids.size() * ShardId.ENCODED_LENGTH);
        for (ShardId id : ids) {
            id.writeTo(payload);
        }
        return new ByteBuf[] {header, payload};
    }

    public static PodPage decodeList(ByteBuf header, ByteBuf payload) {
        Optional<ShardId> next = header.readBoolean() ? Optional.of(ShardId.readFrom(header)) : Optional.empty();
        List<ShardId> ids = new ArrayList<>(payload.readableBytes() / ShardId.ENCODED_LENGTH);
        while (payload.readableBytes() >= ShardId.ENCODED_LENGTH) {
            ids.add(ShardId.readFrom(payload));
        }
        return new PodPage(ids, next);
    }

    public static ByteBuf statsHeader(PodStats s, ByteBufAllocator alloc) {
        ByteBuf h = alloc.heapBuffer(44);
        h.writeLong(s.unflushedBytes()).writeInt(s.unflushedShards()).writeLong(s.purgeQueueDepth())
                .writeLong(s.oldestPurgeAgeMillis()).writeInt(s.tomes()).writeLong(s.usableBytes());
        return h;
    }

    public static PodStats decodeStats(ByteBuf h) {
        return new PodStats(h.readLong(), h.readInt(), h.readLong(), h.readLong(), h.readInt(), h.readLong());
    }
}
