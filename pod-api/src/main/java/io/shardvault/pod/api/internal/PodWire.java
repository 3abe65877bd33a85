package io.shardvault.pod.api.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.pod.api.AgedShard;
import io.shardvault.pod.api.FailedTome;
import io.shardvault.pod.api.PodAgedPage;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodPage;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.PodStats;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.api.ScrubStatus;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Encoding and decoding of the pod ops' headers and payloads ({@link io.shardvault.pod.api.PodOps}). Stateless. */
public final class PodWire {
    private static final int AGED_SHARD_LENGTH = ShardId.ENCODED_LENGTH + 8;

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

    /** A READ's header as {@link #readHeader} writes it. */
    public record ReadRange(ShardId id, long offset, int length) {
    }

    /** Reads a READ's header from {@code h}, advancing its reader index. */
    public static ReadRange decodeReadHeader(ByteBuf h) {
        ShardId id = ShardId.readFrom(h);
        long offset = h.readLong();
        return new ReadRange(id, offset, h.readInt());
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

    /** The LIST_AGED response: header {@code hasNext [next]}, payload the ids, each with its age. */
    public static ByteBuf[] listAgedResponse(List<AgedShard> shards, Optional<ShardId> next, ByteBufAllocator alloc) {
        ByteBuf header = alloc.heapBuffer(1 + ShardId.ENCODED_LENGTH);
        header.writeBoolean(next.isPresent());
        next.ifPresent(id -> id.writeTo(header));
        ByteBuf payload = alloc.heapBuffer(shards.size() * AGED_SHARD_LENGTH);
        for (AgedShard s : shards) {
            s.id().writeTo(payload);
            payload.writeLong(s.ageMillis());
        }
        return new ByteBuf[] {header, payload};
    }

    public static PodAgedPage decodeListAged(ByteBuf header, ByteBuf payload) {
        Optional<ShardId> next = header.readBoolean() ? Optional.of(ShardId.readFrom(header)) : Optional.empty();
        List<AgedShard> shards = new ArrayList<>(payload.readableBytes() / AGED_SHARD_LENGTH);
        while (payload.readableBytes() >= AGED_SHARD_LENGTH) {
            shards.add(new AgedShard(ShardId.readFrom(payload), payload.readLong()));
        }
        return new PodAgedPage(shards, next);
    }

    public static ByteBuf statsHeader(PodStats s, ByteBufAllocator alloc) {
        ByteBuf h = alloc.heapBuffer(56);
        h.writeLong(s.unflushedBytes()).writeInt(s.unflushedShards()).writeLong(s.purgeQueueDepth())
                .writeLong(s.oldestPurgeAgeMillis()).writeInt(s.tomes()).writeLong(s.usableBytes())
                .writeLong(s.assignment()).writeInt(s.failedTomes().size());
        for (FailedTome t : s.failedTomes()) {
            h.writeInt(t.tome()).writeLong(t.failedAtMillis()).writeBoolean(t.recorded());
            writeText(h, t.directory());
            writeText(h, t.reason());
        }
        h.writeBoolean(s.scrub().isPresent());
        s.scrub().ifPresent(c -> {
            h.writeLong(c.pass()).writeBoolean(c.inPass()).writeLong(c.passStartMillis())
                    .writeBoolean(c.position().isPresent());
            c.position().ifPresent(id -> id.writeTo(h));
            h.writeLong(c.passFiles()).writeLong(c.passBytes()).writeLong(c.lastEndMillis())
                    .writeLong(c.lastDurationMillis()).writeLong(c.lastFiles()).writeLong(c.lastBytes())
                    .writeLong(c.lastCorrupt()).writeLong(c.lastMissing()).writeLong(c.bytesPerSecond())
                    .writeInt(c.heldFindings());
        });
        return h;
    }

    /**
     * A STATS header. Fields were appended over time, and a missing one reads as its "none": from
     * a pod older than ASSIGN (no assignment) as unassigned, from one older than failed tomes as
     * none, and from one that counts failed tomes without detailing them as that many unknown ones;
     * from one older than the scrub status, no scrub status.
     */
    public static PodStats decodeStats(ByteBuf h) {
        long unflushedBytes = h.readLong();
        int unflushedShards = h.readInt();
        long queueDepth = h.readLong();
        long oldestAge = h.readLong();
        int tomes = h.readInt();
        long usable = h.readLong();
        long assignment = h.readableBytes() >= 8 ? h.readLong() : PodAssignment.UNASSIGNED;
        int failedCount = h.readableBytes() >= 4 ? h.readInt() : 0;
        List<FailedTome> failed = new ArrayList<>(failedCount);
        boolean detailed = h.isReadable();
        for (int i = 0; i < failedCount; i++) {
            if (!detailed) {
                failed.add(new FailedTome(-1, "", 0, "unknown: the pod reports a count only (an older version)", true));
                continue;
            }
            int tome = h.readInt();
            long failedAt = h.readLong();
            boolean recorded = h.readBoolean();
            String directory = readText(h);
            failed.add(new FailedTome(tome, directory, failedAt, readText(h), recorded));
        }
        Optional<ScrubStatus> scrub = Optional.empty();
        if (h.isReadable() && h.readBoolean()) {
            long pass = h.readLong();
            boolean inPass = h.readBoolean();
            long passStart = h.readLong();
            Optional<ShardId> position = h.readBoolean() ? Optional.of(ShardId.readFrom(h)) : Optional.empty();
            scrub = Optional.of(new ScrubStatus(pass, inPass, passStart, position, h.readLong(), h.readLong(),
                    h.readLong(), h.readLong(), h.readLong(), h.readLong(), h.readLong(), h.readLong(), h.readLong(),
                    h.readInt()));
        }
        return new PodStats(unflushedBytes, unflushedShards, queueDepth, oldestAge, tomes, usable, assignment, failed,
                scrub);
    }

    /** Longest text field in a STATS answer, in chars: the whole header must stay under 64 KiB. */
    private static final int MAX_TEXT_CHARS = 1024;

    private static void writeText(ByteBuf h, String text) {
        String t = text.length() > MAX_TEXT_CHARS ? text.substring(0, MAX_TEXT_CHARS) + "..." : text;
        byte[] bytes = t.getBytes(StandardCharsets.UTF_8);
        h.writeShort(bytes.length).writeBytes(bytes);
    }

    private static String readText(ByteBuf h) {
        return h.readCharSequence(h.readUnsignedShort(), StandardCharsets.UTF_8).toString();
    }

    /** The ASSIGN request header (see {@link io.shardvault.pod.api.PodOps}). */
    public static ByteBuf assignHeader(PodAssignment a) {
        ByteBuf h = Unpooled.buffer();
        h.writeShort(a.slots().size());
        for (PodSlot s : a.slots()) {
            h.writeInt(s.vaultId()).writeByte(s.shardIndex());
        }
        h.writeShort(a.stashServers().size());
        for (InetSocketAddress server : a.stashServers()) {
            byte[] host = server.getHostString().getBytes(StandardCharsets.UTF_8);
            h.writeShort(host.length).writeBytes(host).writeShort(server.getPort());
        }
        return h;
    }

    /** Reads an ASSIGN request header; IllegalArgumentException or IndexOutOfBoundsException when malformed. */
    public static PodAssignment decodeAssign(ByteBuf h) {
        int slotCount = h.readUnsignedShort();
        List<PodSlot> slots = new ArrayList<>(slotCount);
        for (int i = 0; i < slotCount; i++) {
            slots.add(new PodSlot(h.readInt(), h.readUnsignedByte()));
        }
        int serverCount = h.readUnsignedShort();
        List<InetSocketAddress> servers = new ArrayList<>(serverCount);
        for (int i = 0; i < serverCount; i++) {
            String host = h.readCharSequence(h.readUnsignedShort(), StandardCharsets.UTF_8).toString();
            servers.add(new InetSocketAddress(host, h.readUnsignedShort()));
        }
        return new PodAssignment(slots, servers);
    }

    /** Bytes of one finding in a SCRUB_FINDINGS answer: seq, ShardId, kind, foundAtMillis. */
    public static final int SCRUB_FINDING_BYTES = 8 + ShardId.ENCODED_LENGTH + 1 + 8;

    public static ByteBuf scrubFindingsHeader(long ackThrough, int limit) {
        return Unpooled.buffer(12).writeLong(ackThrough).writeInt(limit);
    }

    /** The SCRUB_FINDINGS answer: header {@code held}, payload the findings. */
    public static ByteBuf[] scrubFindingsResponse(int held, List<ScrubFinding> findings, ByteBufAllocator alloc) {
        ByteBuf header = alloc.heapBuffer(4).writeInt(held);
        ByteBuf payload = alloc.heapBuffer(findings.size() * SCRUB_FINDING_BYTES);
        for (ScrubFinding f : findings) {
            writeFinding(payload, f);
        }
        return new ByteBuf[] {header, payload};
    }

    /** One finding as SCRUB_FINDINGS carries it (and the pod's findings file stores it). */
    public static void writeFinding(ByteBuf out, ScrubFinding f) {
        out.writeLong(f.seq());
        f.id().writeTo(out);
        out.writeByte(f.kind().wire()).writeLong(f.foundAtMillis());
    }

    public static ScrubFinding readFinding(ByteBuf in) {
        return new ScrubFinding(in.readLong(), ShardId.readFrom(in), ScrubFinding.Kind.fromWire(in.readUnsignedByte()),
                in.readLong());
    }

    public static List<ScrubFinding> decodeScrubFindings(ByteBuf payload) {
        List<ScrubFinding> out = new ArrayList<>(payload.readableBytes() / SCRUB_FINDING_BYTES);
        while (payload.readableBytes() >= SCRUB_FINDING_BYTES) {
            out.add(readFinding(payload));
        }
        return out;
    }
}
