package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.pod.api.ScrubFinding;
import io.shardvault.pod.api.internal.PodWire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The damaged shards the scrubber found and no coordinator has acknowledged yet (op SCRUB_FINDINGS),
 * kept in the instance's state directory so that neither a pod restart nor a coordinator dying
 * between taking and enqueueing them loses one.
 *
 * <pre>
 * file "scrub-findings", replaced atomically ({@link StateFiles#replace}) at every change
 *  +--------+------+------+-------------+-----------+------------------------------------+-----------+
 *  | "SVSF" | vers | rsvd | nextSeq u64 | count u32 | count x finding (30 bytes):        | crc32c of |
 *  |  u32   | u16  | u16  |             |           | seq u64, ShardId(13), kind u8,     | all before|
 *  |        |      |      |             |           | foundAtMillis u64 (as on the wire) |    u32    |
 *  +--------+------+------+-------------+-----------+------------------------------------+-----------+
 * </pre>
 * Version 1: the first. A damaged file (magic, version, length or CRC) is logged and read as empty,
 * with the numbers restarted from the clock, past any handed out before: the findings it held are
 * found again by the next pass, which is kinder than a pod that will not start.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>findings held</td><td>{@value #MAX_HELD}; when full the scrubber waits (it does not move on)
 *       until a coordinator acknowledges some, so nothing found is dropped</td></tr>
 *   <tr><td>findings per shard</td><td>one: a shard found again while held is not added twice</td></tr>
 * </table>
 *
 * <p>Thread-safe (synchronized; the file is small and rewritten only when findings change, which
 * healthy disks make rare). Durability: a finding is durable when {@link #add} returns, an
 * acknowledgement when {@link #acknowledge} returns.
 */
final class ScrubFindings {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubFindings.class);
    static final String NAME = "scrub-findings";
    static final int MAGIC = 0x53565346; // "SVSF"
    static final int CURRENT_VERSION = 1;
    static final int MIN_COMPATIBLE_VERSION = 1;
    static final int MAX_HELD = 10_000;
    private static final int HEADER_BYTES = 20;

    private final Path stateDir;
    private final List<ScrubFinding> held = new ArrayList<>();
    private final Set<ShardId> heldIds = new HashSet<>();
    private long nextSeq;

    private ScrubFindings(Path stateDir, long nextSeq) {
        this.stateDir = stateDir;
        this.nextSeq = nextSeq;
    }

    /** Reads the held findings (none when the file is absent or damaged). */
    static ScrubFindings open(Path stateDir, long nowMillis) throws IOException {
        Path path = stateDir.resolve(NAME);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return new ScrubFindings(stateDir, 1);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        String damage = null;
        if (bytes.length < HEADER_BYTES + 4 || b.getInt(0) != MAGIC) {
            damage = "not a scrub findings file";
        } else if ((b.getShort(4) & 0xffff) < MIN_COMPATIBLE_VERSION || (b.getShort(4) & 0xffff) > CURRENT_VERSION) {
            damage = "version " + (b.getShort(4) & 0xffff) + ", this pod reads " + MIN_COMPATIBLE_VERSION + ".."
                    + CURRENT_VERSION;
        } else if ((long) b.getInt(16) * PodWire.SCRUB_FINDING_BYTES != bytes.length - HEADER_BYTES - 4
                || b.getInt(bytes.length - 4) != Crc32c.of(bytes, 0, bytes.length - 4)) {
            damage = "length or CRC32C mismatch";
        }
        if (damage != null) {
            // Numbers must not go back (a coordinator's acknowledgement in flight would forget new findings):
            // take them from the clock, above any this pod handed out (fewer than 65,536 per millisecond).
            long restart = Math.max(1, nowMillis) << 16;
            LOG.warn("{} is damaged ({}): starting with no held findings and numbers from {}; the next scrub pass "
                    + "finds what it held again", path, damage, restart);
            return new ScrubFindings(stateDir, restart);
        }
        ScrubFindings f = new ScrubFindings(stateDir, b.getLong(8));
        ByteBuf in = Unpooled.wrappedBuffer(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES - 4);
        while (in.isReadable()) {
            ScrubFinding finding = PodWire.readFinding(in);
            f.held.add(finding);
            f.heldIds.add(finding.id());
        }
        return f;
    }

    /** Whether no more findings fit until some are acknowledged. */
    synchronized boolean full() {
        return held.size() >= MAX_HELD;
    }

    synchronized int size() {
        return held.size();
    }

    /**
     * Holds a new finding, durably; false (and nothing written) if one for this shard is already held.
     *
     * @throws IllegalStateException when {@link #full()}
     */
    synchronized boolean add(ShardId id, ScrubFinding.Kind kind, long foundAtMillis) throws IOException {
        if (heldIds.contains(id)) {
            return false;
        }
        if (full()) {
            throw new IllegalStateException("scrub findings are full (" + MAX_HELD + ")");
        }
        held.add(new ScrubFinding(nextSeq, id, kind, foundAtMillis));
        heldIds.add(id);
        nextSeq++;
        try {
            persist();
        } catch (IOException e) {
            held.remove(held.size() - 1);
            heldIds.remove(id);
            throw e;
        }
        return true;
    }

    /** Forgets, durably, the findings numbered up to {@code through}. */
    synchronized void acknowledge(long through) throws IOException {
        if (held.isEmpty() || held.get(0).seq() > through) {
            return;
        }
        List<ScrubFinding> kept = new ArrayList<>();
        for (ScrubFinding f : held) {
            if (f.seq() > through) {
                kept.add(f);
            }
        }
        List<ScrubFinding> before = new ArrayList<>(held);
        held.clear();
        held.addAll(kept);
        try {
            persist();
        } catch (IOException e) {
            held.clear();
            held.addAll(before);
            throw e;
        }
        heldIds.clear();
        for (ScrubFinding f : held) {
            heldIds.add(f.id());
        }
    }

    /** The oldest {@code limit} held findings. */
    synchronized List<ScrubFinding> oldest(int limit) {
        return List.copyOf(held.subList(0, Math.min(limit, held.size())));
    }

    private void persist() throws IOException {
        ByteBuf out = Unpooled.buffer(HEADER_BYTES + held.size() * PodWire.SCRUB_FINDING_BYTES + 4);
        out.writeInt(MAGIC).writeShort(CURRENT_VERSION).writeShort(0).writeLong(nextSeq).writeInt(held.size());
        for (ScrubFinding f : held) {
            PodWire.writeFinding(out, f);
        }
        out.writeInt(Crc32c.of(out.array(), out.arrayOffset(), out.writerIndex()));
        StateFiles.replace(stateDir, NAME, ByteBuffer.wrap(out.array(), out.arrayOffset(), out.writerIndex()));
    }
}
