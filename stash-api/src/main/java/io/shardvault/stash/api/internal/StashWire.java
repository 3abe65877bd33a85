package io.shardvault.stash.api.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.StashStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Encodes and decodes the headers and payloads of the stash ops, as laid out in
 * {@link io.shardvault.stash.api.StashOps}. Shared by the client and the server so the two cannot
 * drift. Decoders throw {@link RpcException} with {@code BAD_REQUEST} on malformed input.
 *
 * <p>Thread-safe: stateless.
 */
public final class StashWire {
    /** Bytes of one entry info on the wire. */
    public static final int ENTRY_INFO_BYTES = ShardId.ENCODED_LENGTH + 8 + 4 + 4 + 8;
    /** Bytes of a PUT request header. */
    public static final int PUT_HEADER_BYTES = ShardId.ENCODED_LENGTH + 8 + 4;
    /** Bytes of a STATS response header. */
    public static final int STATS_HEADER_BYTES = 4 * 8;

    private StashWire() {
    }

    /** What a PUT request header says. */
    public record PutHeader(ShardId id, long offsetInShard, int crc32c) {
    }

    /** One chunk of a PUT_MANY request, as its header describes it. */
    public record PutManyEntry(ShardId id, long offsetInShard, int crc32c, int length) {
    }

    /** Bytes of one chunk's entry in a PUT_MANY request header. */
    static final int PUT_MANY_ENTRY_BYTES = ShardId.ENCODED_LENGTH + 8 + 4 + 4;
    /** A failure message in a PUT_MANY answer is cut to this many bytes. */
    private static final int MAX_MESSAGE_BYTES = 1024;

    /** What a LIST request header says. */
    public record ListRequest(int vaultId, int shardIndex, int limit, Optional<ShardId> after) {
    }

    public static ByteBuf encodePutHeader(ByteBufAllocator alloc, ShardId id, long offsetInShard, int crc32c) {
        ByteBuf out = alloc.heapBuffer(PUT_HEADER_BYTES);
        id.writeTo(out);
        out.writeLong(offsetInShard);
        out.writeInt(crc32c);
        return out;
    }

    public static PutHeader decodePutHeader(ByteBuf in) throws RpcException {
        need(in, PUT_HEADER_BYTES, "PUT header");
        ShardId id = readShardId(in);
        long offset = in.readLong();
        int crc = in.readInt();
        if (offset < 0) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "offsetInShard must be >= 0: " + offset);
        }
        return new PutHeader(id, offset, crc);
    }

    public static ByteBuf encodePutManyHeader(ByteBufAllocator alloc, List<PutManyEntry> entries) {
        ByteBuf out = alloc.heapBuffer(2 + entries.size() * PUT_MANY_ENTRY_BYTES);
        out.writeShort(entries.size());
        for (PutManyEntry entry : entries) {
            entry.id().writeTo(out);
            out.writeLong(entry.offsetInShard());
            out.writeInt(entry.crc32c());
            out.writeInt(entry.length());
        }
        return out;
    }

    /**
     * Decodes a PUT_MANY header and checks it against its payload: the lengths must add up to the
     * payload's readable bytes.
     */
    public static List<PutManyEntry> decodePutManyHeader(ByteBuf in, int payloadBytes) throws RpcException {
        need(in, 2, "PUT_MANY count");
        int count = in.readUnsignedShort();
        if (count == 0 || count > StashOps.MAX_PUT_MANY_CHUNKS) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "PUT_MANY carries " + count + " chunks; 1 to "
                    + StashOps.MAX_PUT_MANY_CHUNKS + " allowed");
        }
        need(in, count * PUT_MANY_ENTRY_BYTES, "PUT_MANY header of " + count + " chunks");
        List<PutManyEntry> entries = new ArrayList<>(count);
        long total = 0;
        for (int i = 0; i < count; i++) {
            ShardId id = readShardId(in);
            long offset = in.readLong();
            int crc = in.readInt();
            int length = in.readInt();
            if (offset < 0 || length < 0) {
                throw new RpcException(ErrorCode.BAD_REQUEST, "PUT_MANY chunk " + i + " (" + id + "): offsetInShard "
                        + offset + " and length " + length + " must be >= 0");
            }
            total += length;
            entries.add(new PutManyEntry(id, offset, crc, length));
        }
        if (total != payloadBytes) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "PUT_MANY header says " + total
                    + " chunk bytes, the payload carries " + payloadBytes);
        }
        return entries;
    }

    /** A PUT_MANY answer: per chunk, in request order, null when it is stored, else why it is not. */
    public static ByteBuf encodePutManyAnswer(ByteBufAllocator alloc, List<RpcException> failures) {
        ByteBuf out = alloc.heapBuffer(2 + failures.size());
        out.writeShort(failures.size());
        for (RpcException failure : failures) {
            if (failure == null) {
                out.writeByte(1);
                continue;
            }
            byte[] message = String.valueOf(failure.getMessage()).getBytes(StandardCharsets.UTF_8);
            int length = Math.min(message.length, MAX_MESSAGE_BYTES);
            out.writeByte(0);
            out.writeShort(failure.code().wire());
            out.writeShort(length);
            out.writeBytes(message, 0, length);
        }
        return out;
    }

    /** Decodes a PUT_MANY answer of {@code expected} chunks: null where stored. */
    public static List<RpcException> decodePutManyAnswer(ByteBuf in, int expected) throws RpcException {
        need(in, 2, "PUT_MANY answer count");
        int count = in.readUnsignedShort();
        if (count != expected) {
            throw new RpcException(ErrorCode.INTERNAL, "PUT_MANY answer covers " + count + " chunks, " + expected
                    + " were sent");
        }
        List<RpcException> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            need(in, 1, "PUT_MANY outcome");
            if (in.readByte() != 0) {
                out.add(null);
                continue;
            }
            need(in, 4, "PUT_MANY failure");
            ErrorCode code = ErrorCode.fromWire(in.readUnsignedShort());
            int length = in.readUnsignedShort();
            need(in, length, "PUT_MANY failure message");
            out.add(new RpcException(code, in.readCharSequence(length, StandardCharsets.UTF_8).toString()));
        }
        return out;
    }

    public static ByteBuf encodeShardId(ByteBufAllocator alloc, ShardId id) {
        ByteBuf out = alloc.heapBuffer(ShardId.ENCODED_LENGTH);
        id.writeTo(out);
        return out;
    }

    public static ShardId decodeShardId(ByteBuf in) throws RpcException {
        need(in, ShardId.ENCODED_LENGTH, "ShardId");
        return readShardId(in);
    }

    public static void writeEntryInfo(ByteBuf out, StashEntryInfo info) {
        info.id().writeTo(out);
        out.writeLong(info.offsetInShard());
        out.writeInt(info.length());
        out.writeInt(info.crc32c());
        out.writeLong(info.writtenAtMillis());
    }

    public static ByteBuf encodeEntryInfo(ByteBufAllocator alloc, StashEntryInfo info) {
        ByteBuf out = alloc.heapBuffer(ENTRY_INFO_BYTES);
        writeEntryInfo(out, info);
        return out;
    }

    public static StashEntryInfo readEntryInfo(ByteBuf in) throws RpcException {
        need(in, ENTRY_INFO_BYTES, "entry info");
        ShardId id = readShardId(in);
        long offset = in.readLong();
        int length = in.readInt();
        int crc = in.readInt();
        long writtenAt = in.readLong();
        try {
            return new StashEntryInfo(id, offset, length, crc, writtenAt);
        } catch (IllegalArgumentException e) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "bad entry info: " + e.getMessage(), e);
        }
    }

    public static ByteBuf encodePurgePayload(ByteBufAllocator alloc, Collection<ShardId> ids) {
        ByteBuf out = alloc.heapBuffer(4 + ids.size() * ShardId.ENCODED_LENGTH);
        out.writeInt(ids.size());
        for (ShardId id : ids) {
            id.writeTo(out);
        }
        return out;
    }

    public static List<ShardId> decodePurgePayload(ByteBuf in) throws RpcException {
        need(in, 4, "PURGE count");
        int count = in.readInt();
        if (count < 0 || (long) count * ShardId.ENCODED_LENGTH != in.readableBytes()) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "PURGE says " + count + " ids but carries "
                    + in.readableBytes() + " bytes");
        }
        List<ShardId> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(readShardId(in));
        }
        return ids;
    }

    public static ByteBuf encodeListRequest(ByteBufAllocator alloc, int vaultId, int shardIndex, int limit,
                                            Optional<ShardId> after) {
        ByteBuf out = alloc.heapBuffer(10 + ShardId.ENCODED_LENGTH);
        out.writeInt(vaultId);
        out.writeByte(shardIndex);
        out.writeInt(limit);
        out.writeByte(after.isPresent() ? 1 : 0);
        after.ifPresent(id -> id.writeTo(out));
        return out;
    }

    public static ListRequest decodeListRequest(ByteBuf in) throws RpcException {
        need(in, 10, "LIST header");
        int vaultId = in.readInt();
        int shardIndex = in.readUnsignedByte();
        int limit = in.readInt();
        int hasAfter = in.readUnsignedByte();
        if (vaultId < 0 || limit <= 0 || hasAfter > 1) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "bad LIST header: vaultId=" + vaultId + " limit=" + limit
                    + " hasAfter=" + hasAfter);
        }
        Optional<ShardId> after = hasAfter == 1 ? Optional.of(decodeShardId(in)) : Optional.empty();
        return new ListRequest(vaultId, shardIndex, limit, after);
    }

    public static ByteBuf encodeNext(ByteBufAllocator alloc, Optional<ShardId> next) {
        ByteBuf out = alloc.heapBuffer(1 + ShardId.ENCODED_LENGTH);
        out.writeByte(next.isPresent() ? 1 : 0);
        next.ifPresent(id -> id.writeTo(out));
        return out;
    }

    public static Optional<ShardId> decodeNext(ByteBuf in) throws RpcException {
        need(in, 1, "LIST response header");
        int hasNext = in.readUnsignedByte();
        return hasNext == 1 ? Optional.of(decodeShardId(in)) : Optional.empty();
    }

    public static ByteBuf encodeEntryInfos(ByteBufAllocator alloc, List<StashEntryInfo> infos) {
        ByteBuf out = alloc.heapBuffer(4 + infos.size() * ENTRY_INFO_BYTES);
        out.writeInt(infos.size());
        for (StashEntryInfo info : infos) {
            writeEntryInfo(out, info);
        }
        return out;
    }

    public static List<StashEntryInfo> decodeEntryInfos(ByteBuf in) throws RpcException {
        need(in, 4, "entry count");
        int count = in.readInt();
        if (count < 0 || (long) count * ENTRY_INFO_BYTES != in.readableBytes()) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "LIST page says " + count + " entries but carries "
                    + in.readableBytes() + " bytes");
        }
        List<StashEntryInfo> infos = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            infos.add(readEntryInfo(in));
        }
        return infos;
    }

    public static ByteBuf encodeStats(ByteBufAllocator alloc, StashStats stats) {
        ByteBuf out = alloc.heapBuffer(STATS_HEADER_BYTES);
        out.writeLong(stats.entries());
        out.writeLong(stats.bytes());
        out.writeLong(stats.capacityBytes());
        out.writeLong(stats.oldestEntryAgeMillis());
        return out;
    }

    public static StashStats decodeStats(ByteBuf in) throws RpcException {
        need(in, STATS_HEADER_BYTES, "STATS header");
        return new StashStats(in.readLong(), in.readLong(), in.readLong(), in.readLong());
    }

    public static ByteBuf encodeCount(ByteBufAllocator alloc, int count) {
        return alloc.heapBuffer(4).writeInt(count);
    }

    private static ShardId readShardId(ByteBuf in) throws RpcException {
        try {
            return ShardId.readFrom(in);
        } catch (IllegalArgumentException e) {
            throw new RpcException(ErrorCode.BAD_REQUEST, "bad ShardId: " + e.getMessage(), e);
        }
    }

    private static void need(ByteBuf in, int bytes, String what) throws RpcException {
        if (in.readableBytes() < bytes) {
            throw new RpcException(ErrorCode.BAD_REQUEST, what + " needs " + bytes + " bytes, got "
                    + in.readableBytes());
        }
    }
}
