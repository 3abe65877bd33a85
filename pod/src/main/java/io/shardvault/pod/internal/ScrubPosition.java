package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the scrubber is, so that a restart resumes its pass instead of starting over: the pass
 * number and start, the last shard checked (passes walk {@link ShardId#KEY_ORDER}), what this pass
 * has counted so far, and the last complete pass (for the gauges). Immutable.
 *
 * <pre>
 * file "scrub-position" (122 bytes, big-endian), replaced atomically ({@link StateFiles#replace})
 *  +--------+------+------+----------+--------------+-----------+-------------+---------------------+
 *  | "SVSP" | vers | rsvd | pass u64 | passStart ms | hasAfter  | after       | this pass: files,   |
 *  |  u32   | u16  | u16  |          | u64          | u8        | ShardId(13) | bytes, corrupt,     |
 *  |        |      |      |          |              |           | (0 if none) | missing: 4 x u64    |
 *  +--------+------+------+----------+--------------+-----------+-------------+---------------------+
 *  | last pass: end ms u64, duration ms u64, files, bytes, corrupt, missing: 4 x u64 | crc32c u32    |
 *  +----------------------------------------------------------------------------------+-------------+
 * </pre>
 * Version 1: the first. A damaged file is logged and read as "never scrubbed": the position only
 * saves work, and a pass from the start costs time, not data.
 *
 * @param pass the current (or, when idle, the last) pass; 0 before the first
 * @param passStartMillis when the current pass started, epoch ms
 * @param after the last shard the current pass checked; empty at its start
 * @param current what the current pass has counted
 * @param lastEndMillis when the last complete pass ended, epoch ms; 0 if none has
 * @param lastDurationMillis how long the last complete pass took
 * @param last what the last complete pass counted
 */
record ScrubPosition(long pass, long passStartMillis, Optional<ShardId> after, Tally current, long lastEndMillis,
                     long lastDurationMillis, Tally last) {
    private static final Logger LOG = LoggerFactory.getLogger(ScrubPosition.class);
    static final String NAME = "scrub-position";
    static final int MAGIC = 0x53565350; // "SVSP"
    static final int CURRENT_VERSION = 1;
    static final int MIN_COMPATIBLE_VERSION = 1;
    static final int BYTES = 122;

    /** What a pass counted: shard files and bytes checked, files found corrupt and with chunks missing. */
    record Tally(long files, long bytes, long corrupt, long missing) {
        static final Tally ZERO = new Tally(0, 0, 0, 0);

        Tally plus(long moreFiles, long moreBytes, long moreCorrupt, long moreMissing) {
            return new Tally(files + moreFiles, bytes + moreBytes, corrupt + moreCorrupt, missing + moreMissing);
        }
    }

    static final ScrubPosition NEVER = new ScrubPosition(0, 0, Optional.empty(), Tally.ZERO, 0, 0, Tally.ZERO);

    ScrubPosition {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(last, "last");
    }

    /** A new pass, started now (after the last one's end, whatever the clock says, so {@link #inPass} holds). */
    ScrubPosition startPass(long nowMillis) {
        return new ScrubPosition(pass + 1, Math.max(nowMillis, lastEndMillis + 1), Optional.empty(), Tally.ZERO,
                lastEndMillis, lastDurationMillis, last);
    }

    /** The current pass past {@code id} without checking it (a shard still being written). */
    ScrubPosition skipped(ShardId id) {
        return new ScrubPosition(pass, passStartMillis, Optional.of(id), current, lastEndMillis, lastDurationMillis,
                last);
    }

    /** The current pass, one shard further. */
    ScrubPosition checked(ShardId id, long bytes, boolean corrupt, boolean missing) {
        return new ScrubPosition(pass, passStartMillis, Optional.of(id),
                current.plus(1, bytes, corrupt ? 1 : 0, missing ? 1 : 0), lastEndMillis, lastDurationMillis, last);
    }

    /** The current pass complete at {@code nowMillis}: it becomes the last. */
    ScrubPosition complete(long nowMillis) {
        long end = Math.max(nowMillis, passStartMillis);
        return new ScrubPosition(pass, passStartMillis, after, current, end, end - passStartMillis, current);
    }

    /** Whether a pass is under way (started and not complete). */
    boolean inPass() {
        return pass > 0 && lastEndMillis < passStartMillis;
    }

    void write(Path stateDir) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        b.putInt(MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0).putLong(pass).putLong(passStartMillis);
        b.put((byte) (after.isPresent() ? 1 : 0));
        b.put(after.map(ShardId::encode).orElse(new byte[ShardId.ENCODED_LENGTH]));
        putTally(b, current);
        b.putLong(lastEndMillis).putLong(lastDurationMillis);
        putTally(b, last);
        b.putInt(Crc32c.of(b.array(), 0, BYTES - 4));
        b.flip();
        StateFiles.replace(stateDir, NAME, b);
    }

    /** The persisted position; {@link #NEVER} when there is none or it is damaged. */
    static ScrubPosition read(Path stateDir) throws IOException {
        Path path = stateDir.resolve(NAME);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return NEVER;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int version = bytes.length == BYTES ? b.getShort(4) & 0xffff : -1;
        if (bytes.length != BYTES || b.getInt(0) != MAGIC || version < MIN_COMPATIBLE_VERSION
                || version > CURRENT_VERSION || b.getInt(BYTES - 4) != Crc32c.of(bytes, 0, BYTES - 4)) {
            LOG.warn("{} is damaged (size, magic, version or CRC32C): the scrubber starts a new pass", path);
            return NEVER;
        }
        b.position(8);
        long pass = b.getLong();
        long start = b.getLong();
        boolean hasAfter = b.get() != 0;
        byte[] id = new byte[ShardId.ENCODED_LENGTH];
        b.get(id);
        Tally current = getTally(b);
        long lastEnd = b.getLong();
        long lastDuration = b.getLong();
        Tally last = getTally(b);
        return new ScrubPosition(pass, start, hasAfter ? Optional.of(ShardId.decode(id)) : Optional.empty(), current,
                lastEnd, lastDuration, last);
    }

    private static void putTally(ByteBuffer b, Tally t) {
        b.putLong(t.files()).putLong(t.bytes()).putLong(t.corrupt()).putLong(t.missing());
    }

    private static Tally getTally(ByteBuffer b) {
        return new Tally(b.getLong(), b.getLong(), b.getLong(), b.getLong());
    }
}
