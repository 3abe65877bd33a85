package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chunk bytes of one stash partition: append-only segment files, {@code chunks/seg-<16 hex>.log},
 * numbered in the order they were created. Exactly one, the newest, is <em>active</em> (appended to);
 * it is sealed, forced, when it reaches the segment size and a new one starts. RocksDB keeps the
 * index ({@link EntryFormat} meta values with a {@link ChunkLocation}); a segment is deleted once no
 * index entry points into it.
 *
 * <h2>Segment file (big-endian)</h2>
 * <pre>
 *  file header, 20 bytes:   0 magic "SVCL" i32 | 4 version i32 (1) | 8 segment number i64 | 16 crc32c of 0..15 i32
 *  then records, each:
 *  0      1        2                15             19          23
 *  +------+--------+----------------+--------------+-----------+------------------------------------+
 *  | 0x52 | version| ShardId        | valueLength  | headerCrc | chunk value (EntryFormat, version 1)|
 *  | 'R'  |   1    | 13 bytes       | i32          | i32       | valueLength bytes                   |
 *  +------+--------+----------------+--------------+-----------+------------------------------------+
 * </pre>
 * {@code headerCrc} is the CRC32C of bytes 0..18. The chunk value carries offsetInShard, the chunk's
 * CRC32C and its own header CRC, so a segment can be scanned and every record verified without the
 * index, and a read checks that the record at an index entry's place is that entry's.
 *
 * <p>Durability: {@link #force()} fdatasyncs the active segment up to everything appended before the
 * call; a segment is forced as it is sealed, and its successor's file and directory entry are synced
 * before anything is appended to it, so every segment but the newest holds exactly what was appended
 * to it. Only the newest segment, at open, may have lost bytes the index points to (the index's WAL
 * may reach the disk before the segment's bytes do): {@code RocksShardStore} verifies the entries in
 * it before serving.
 *
 * <p>Thread-safe: one appender at a time (the store's write lock), concurrent with reads, forces and
 * deletions. Live counts (entries and record bytes per segment) are kept in memory, rebuilt from the
 * index at open.
 */
final class ChunkLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChunkLog.class);
    static final int FILE_HEADER_BYTES = 20;
    static final int RECORD_HEADER_BYTES = 23;
    private static final int FILE_MAGIC = 0x5356434C;
    private static final int FILE_VERSION = 1;
    private static final byte RECORD_MAGIC = 0x52;
    private static final byte RECORD_VERSION = 1;
    private static final Pattern NAME = Pattern.compile("seg-([0-9a-f]{16})\\.log");
    /**
     * Test hook, off in production: after each force, append "segment length" to
     * {@value #FORCED_LENGTHS_FILE} in the chunk directory (not synced: a kill -9 keeps it), so that
     * a test can cut every segment back to what was forced, as a power loss would.
     */
    private static final boolean RECORD_FORCED_LENGTHS =
            Boolean.getBoolean("shardvault.stash.test.recordForcedLengths");
    static final String FORCED_LENGTHS_FILE = "forced-lengths.test";

    private final Path dir;
    private final long segmentBytes;
    private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
    private final FileChannel forcedLengths;
    private volatile Segment active;

    /** One segment file and what is alive in it. Counts are guarded by the ChunkLog's monitor. */
    static final class Segment {
        final long number;
        final Path path;
        final FileChannel channel;
        /** Bytes appended (the file's length as we write it). Written by the appender only. */
        volatile long size;
        /** When it was sealed (or found sealed at open), for compaction; 0 while active. */
        volatile long sealedAtMillis;
        long liveEntries;
        long liveBytes;

        Segment(long number, Path path, FileChannel channel, long size) {
            this.number = number;
            this.path = path;
            this.channel = channel;
            this.size = size;
        }
    }

    /** What the log holds, for the gauges. */
    record Stats(int segments, long liveBytes, long deadBytes) {
    }

    /** A force of the active segment: its first {@code length} bytes are on disk. */
    record Forced(long segment, long length) {
    }

    /** One record found by {@link #scan}. */
    record ScannedRecord(ShardId id, ChunkLocation location, int valueLength) {
    }

    private ChunkLog(Path dir, long segmentBytes, FileChannel forcedLengths) {
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        this.forcedLengths = forcedLengths;
    }

    /**
     * Opens the segments in {@code dir} (creating it) for reading; nothing is appended until
     * {@link #startActive()}. Call {@link #countLive} for every index entry before that.
     */
    static ChunkLog open(Path dir, long segmentBytes) throws ShardStoreException {
        ChunkLog log = null;
        try {
            Files.createDirectories(dir);
            FileChannel hook = RECORD_FORCED_LENGTHS ? FileChannel.open(dir.resolve(FORCED_LENGTHS_FILE),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND) : null;
            log = new ChunkLog(dir, segmentBytes, hook);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path path : files.toList()) {
                    Matcher name = NAME.matcher(path.getFileName().toString());
                    if (name.matches()) {
                        long number = Long.parseUnsignedLong(name.group(1), 16);
                        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                        Segment segment = new Segment(number, path, channel, channel.size());
                        segment.sealedAtMillis = Files.getLastModifiedTime(path).toMillis();
                        log.segments.put(number, segment);
                    }
                }
            }
            return log;
        } catch (IOException e) {
            if (log != null) {
                log.close();
            }
            throw new ShardStoreException("open chunk log " + dir, e.toString(), e);
        }
    }

    /** The number of the newest segment, the only one that may miss bytes the index points to. */
    Optional<Long> newestSegment() {
        return segments.isEmpty() ? Optional.empty() : Optional.of(segments.lastKey());
    }

    boolean exists(long segment) {
        return segments.containsKey(segment);
    }

    /** Counts an index entry found at open as alive in its segment. */
    synchronized void countLive(ChunkLocation location, int chunkLength) {
        Segment segment = segments.get(location.segment());
        if (segment != null) {
            segment.liveEntries++;
            segment.liveBytes += recordBytes(chunkLength);
        }
    }

    /**
     * Forces the newest segment found at open (a crashed process may have left its bytes in the page
     * cache only) and starts a new active segment after it.
     */
    void startActive() throws ShardStoreException {
        Optional<Long> newest = newestSegment();
        try {
            if (newest.isPresent()) {
                segments.get(newest.get()).channel.force(false);
            }
            active = create(newest.map(n -> n + 1).orElse(0L));
        } catch (IOException e) {
            throw new ShardStoreException("start chunk log " + dir, e.toString(), e);
        }
    }

    static int recordBytes(int chunkLength) {
        return RECORD_HEADER_BYTES + EntryFormat.CHUNK_HEADER_BYTES + chunkLength;
    }

    /**
     * Appends the chunk values (their readable bytes, left as they were) as records of the active
     * segment, rolling to a new segment when it is full, and counts them alive; returns where each
     * went. Not durable until {@link #force()}. One caller at a time.
     */
    List<ChunkLocation> append(List<ShardId> ids, List<ByteBuf> chunkValues) throws ShardStoreException {
        List<ChunkLocation> out = new ArrayList<>(ids.size());
        int i = 0;
        int counted = 0;
        try {
            while (i < ids.size()) {
                Segment segment = active;
                // The records that fit in this segment (at least one: a record larger than a segment goes alone).
                List<ByteBuffer> buffers = new ArrayList<>();
                long at = segment.size;
                int start = i;
                while (i < ids.size()) {
                    int length = chunkValues.get(i).readableBytes();
                    long size = RECORD_HEADER_BYTES + (long) length;
                    if (at + size > segmentBytes && at > FILE_HEADER_BYTES) {
                        break;
                    }
                    buffers.add(ByteBuffer.wrap(recordHeader(ids.get(i), length)));
                    buffers.addAll(Arrays.asList(chunkValues.get(i).nioBuffers()));
                    out.add(new ChunkLocation(segment.number, at));
                    at += size;
                    i++;
                }
                if (i > start) {
                    write(segment, buffers);
                    synchronized (this) {
                        for (int j = start; j < i; j++) {
                            segment.liveEntries++;
                            segment.liveBytes += RECORD_HEADER_BYTES + chunkValues.get(j).readableBytes();
                        }
                    }
                    counted = i;
                }
                if (i < ids.size()) {
                    roll();
                }
            }
        } catch (ShardStoreException | RuntimeException e) {
            // Records of this call already counted alive will have no index entry: they are dead.
            for (int j = 0; j < counted; j++) {
                removed(out.get(j), chunkValues.get(j).readableBytes() - EntryFormat.CHUNK_HEADER_BYTES);
            }
            throw e;
        }
        return out;
    }

    private void write(Segment segment, List<ByteBuffer> buffers) throws ShardStoreException {
        ByteBuffer[] array = buffers.toArray(ByteBuffer[]::new);
        try {
            segment.channel.position(segment.size);
            long remaining = Arrays.stream(array).mapToLong(ByteBuffer::remaining).sum();
            while (remaining > 0) {
                remaining -= segment.channel.write(array);
            }
        } catch (IOException e) {
            throw new ShardStoreException("append to " + segment.path, e.toString(), e);
        } finally {
            try {
                // After a failed write the bytes past the last whole record are garbage nobody points to.
                segment.size = segment.channel.position();
            } catch (IOException e) {
                LOG.warn("cannot read the position of {}", segment.path, e);
            }
        }
    }

    private void roll() throws ShardStoreException {
        Segment sealed = active;
        try {
            force(sealed);
            sealed.sealedAtMillis = System.currentTimeMillis();
            active = create(sealed.number + 1);
        } catch (IOException e) {
            throw new ShardStoreException("roll chunk log " + dir, e.toString(), e);
        }
    }

    /** A new segment: header written and forced, and its directory entry synced, before any record goes in. */
    private Segment create(long number) throws IOException {
        Path path = dir.resolve(String.format("seg-%016x.log", number));
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            byte[] header = new byte[FILE_HEADER_BYTES];
            EntryFormat.putInt(header, 0, FILE_MAGIC);
            EntryFormat.putInt(header, 4, FILE_VERSION);
            EntryFormat.putLong(header, 8, number);
            EntryFormat.putInt(header, 16, Crc32c.of(header, 0, 16));
            ByteBuffer buffer = ByteBuffer.wrap(header);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            Segment segment = new Segment(number, path, channel, FILE_HEADER_BYTES);
            force(segment);
            syncDirectory();
            segments.put(number, segment);
            LOG.debug("chunk log segment {} started", path);
            return segment;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void syncDirectory() throws IOException {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    /** Makes every record appended before this call durable. */
    Optional<Forced> force() throws ShardStoreException {
        Segment segment = active;
        try {
            return Optional.of(new Forced(segment.number, force(segment)));
        } catch (ClosedChannelException e) {
            if (segments.get(segment.number) != segment) {
                return Optional.empty(); // rolled, emptied and deleted meanwhile: nothing of it needs to be durable
            }
            throw new ShardStoreException("force " + segment.path, e.toString(), e);
        } catch (IOException e) {
            throw new ShardStoreException("force " + segment.path, e.toString(), e);
        }
    }

    /** Forces the segment; returns the length the force covered (everything appended before the call). */
    private long force(Segment segment) throws IOException {
        long covered = segment.size;
        segment.channel.force(false);
        if (forcedLengths != null) {
            synchronized (forcedLengths) {
                forcedLengths.write(ByteBuffer.wrap((segment.number + " " + covered + "\n")
                        .getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return covered;
    }

    /**
     * The chunk value at {@code location}, checked to be the record of {@code id} with a value of
     * {@code chunkLength} chunk bytes; empty when the segment is gone (its entries were purged or
     * moved since the caller read the index: read it again).
     *
     * @throws CorruptEntryException when the record there is not that entry's
     */
    Optional<byte[]> read(ShardId id, ChunkLocation location, int chunkLength) throws ShardStoreException {
        Segment segment = segments.get(location.segment());
        if (segment == null) {
            return Optional.empty();
        }
        int valueLength = EntryFormat.CHUNK_HEADER_BYTES + chunkLength;
        byte[] header = new byte[RECORD_HEADER_BYTES];
        byte[] value = new byte[valueLength];
        try {
            readFully(segment, header, location.position());
            readFully(segment, value, location.position() + RECORD_HEADER_BYTES);
        } catch (ClosedChannelException e) {
            return Optional.empty();
        } catch (EOFException e) {
            throw new CorruptEntryException("read chunk", id, "record at " + location + " ends past the end of "
                    + segment.path);
        } catch (IOException e) {
            throw new ShardStoreException("read chunk", id + " at " + location + ": " + e, e);
        }
        String problem = checkRecordHeader(header, id, valueLength);
        if (problem != null) {
            throw new CorruptEntryException("read chunk", id, problem + " in the record at " + location + " of "
                    + segment.path);
        }
        return Optional.of(value);
    }

    private static void readFully(Segment segment, byte[] into, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(into);
        while (buffer.hasRemaining()) {
            if (segment.channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException();
            }
        }
    }

    private static byte[] recordHeader(ShardId id, int valueLength) {
        byte[] header = new byte[RECORD_HEADER_BYTES];
        header[0] = RECORD_MAGIC;
        header[1] = RECORD_VERSION;
        System.arraycopy(id.encode(), 0, header, 2, ShardId.ENCODED_LENGTH);
        EntryFormat.putInt(header, 15, valueLength);
        EntryFormat.putInt(header, 19, Crc32c.of(header, 0, 19));
        return header;
    }

    /** What is wrong with a record header, or null when it is {@code id}'s with that value length. */
    private static String checkRecordHeader(byte[] header, ShardId id, int valueLength) {
        if (header[0] != RECORD_MAGIC || header[1] != RECORD_VERSION) {
            return String.format("bad record magic or version %02x%02x", header[0], header[1]);
        }
        int crc = Crc32c.of(header, 0, 19);
        if (crc != EntryFormat.getInt(header, 19)) {
            return "record header has CRC32C " + Crc32c.format(crc) + ", expected "
                    + Crc32c.format(EntryFormat.getInt(header, 19));
        }
        ShardId stored = ShardId.decode(Arrays.copyOfRange(header, 2, 2 + ShardId.ENCODED_LENGTH));
        if (id != null && !stored.equals(id)) {
            return "record of " + stored;
        }
        if (valueLength >= 0 && EntryFormat.getInt(header, 15) != valueLength) {
            return "record value of " + EntryFormat.getInt(header, 15) + " bytes, expected " + valueLength;
        }
        return null;
    }

    /**
     * Every whole record of a sealed segment, in order, up to the first one whose header fails its
     * check (a torn tail). Reads headers only.
     */
    List<ScannedRecord> scan(long number) throws ShardStoreException {
        Segment segment = segments.get(number);
        List<ScannedRecord> out = new ArrayList<>();
        if (segment == null) {
            return out;
        }
        byte[] header = new byte[RECORD_HEADER_BYTES];
        long at = FILE_HEADER_BYTES;
        try {
            while (at + RECORD_HEADER_BYTES <= segment.size) {
                readFully(segment, header, at);
                if (checkRecordHeader(header, null, -1) != null) {
                    break;
                }
                int valueLength = EntryFormat.getInt(header, 15);
                long end = at + RECORD_HEADER_BYTES + valueLength;
                if (valueLength < EntryFormat.CHUNK_HEADER_BYTES || end > segment.size) {
                    break;
                }
                ShardId id = ShardId.decode(Arrays.copyOfRange(header, 2, 2 + ShardId.ENCODED_LENGTH));
                out.add(new ScannedRecord(id, new ChunkLocation(number, at), valueLength));
                at += RECORD_HEADER_BYTES + valueLength;
            }
        } catch (ClosedChannelException e) {
            return List.of();
        } catch (IOException e) {
            throw new ShardStoreException("scan " + segment.path, e.toString(), e);
        }
        return out;
    }

    /** An entry at {@code location} was deleted or replaced (or its index write failed): its bytes are dead. */
    synchronized void removed(ChunkLocation location, int chunkLength) {
        Segment segment = segments.get(location.segment());
        if (segment != null) {
            segment.liveEntries--;
            segment.liveBytes -= recordBytes(chunkLength);
        }
    }

    /**
     * The sealed segments no entry is alive in. They may be deleted once the index changes that
     * emptied them are durable: take this list before the sync that covers them, delete after it.
     */
    synchronized List<Long> emptySealedSegments() {
        List<Long> out = new ArrayList<>();
        for (Segment segment : segments.values()) {
            if (sealed(segment) && segment.liveEntries <= 0) {
                out.add(segment.number);
            }
        }
        return out;
    }

    /**
     * Sealed segments older than {@code sealedBeforeMillis} with less than {@code maxLiveFraction} of
     * their record bytes alive, oldest first.
     */
    synchronized List<Long> compactionCandidates(long sealedBeforeMillis, double maxLiveFraction) {
        List<Long> out = new ArrayList<>();
        for (Segment segment : segments.values()) {
            long records = segment.size - FILE_HEADER_BYTES;
            if (sealed(segment) && segment.liveEntries > 0 && segment.sealedAtMillis <= sealedBeforeMillis
                    && segment.liveBytes < records * maxLiveFraction) {
                out.add(segment.number);
            }
        }
        return out;
    }

    /**
     * Whether nothing more is appended to {@code segment}: it is older than the active one. A roll puts the next
     * segment into the map before it becomes active, and a sync lists segments on another thread: "not the
     * active one" would take that new segment for an empty sealed one and delete it with what was written into
     * it since.
     */
    private boolean sealed(Segment segment) {
        Segment current = active;
        return current != null && segment.number < current.number;
    }

    /** Deletes these segments (taken from {@link #emptySealedSegments()} before a covering sync). */
    void delete(List<Long> numbers) {
        for (long number : numbers) {
            Segment segment = segments.remove(number);
            if (segment == null) {
                continue;
            }
            try {
                segment.channel.close();
                Files.deleteIfExists(segment.path);
                LOG.debug("chunk log segment {} deleted: nothing in it is alive", segment.path);
            } catch (IOException e) {
                LOG.warn("cannot delete chunk log segment {}; it is deleted at the next open", segment.path, e);
            }
        }
    }

    synchronized Stats stats() {
        long live = 0;
        long dead = 0;
        for (Segment segment : segments.values()) {
            live += segment.liveBytes;
            dead += Math.max(0, segment.size - FILE_HEADER_BYTES - segment.liveBytes);
        }
        return new Stats(segments.size(), live, dead);
    }

    Path dir() {
        return dir;
    }

    /** Forces the active segment and closes every file. */
    @Override
    public void close() {
        Segment current = active;
        if (current != null) {
            try {
                force(current);
            } catch (IOException e) {
                LOG.warn("forcing {} at close failed", current.path, e);
            }
        }
        for (Segment segment : segments.values()) {
            try {
                segment.channel.close();
            } catch (IOException e) {
                LOG.warn("closing {} failed", segment.path, e);
            }
        }
        if (forcedLengths != null) {
            try {
                forcedLengths.close();
            } catch (IOException e) {
                LOG.warn("closing {} failed", FORCED_LENGTHS_FILE, e);
            }
        }
    }
}
