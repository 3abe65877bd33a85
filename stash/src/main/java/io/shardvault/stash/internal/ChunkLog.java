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
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
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
 *  file header, 28 bytes:   0 magic "SVCL" i32 | 4 version i32 (2) | 8 segment number i64
 *                           | 16 sealed length i64 (0 while active) | 24 crc32c of 0..23 i32
 *  (version 1, before spare segments: 20 bytes, 0 magic | 4 version (1) | 8 segment number | 16 crc32c of 0..15)
 *  then records, each:
 *  0      1        2                15             19          23
 *  +------+--------+----------------+--------------+-----------+------------------------------------+
 *  | 0x52 | version| ShardId        | valueLength  | headerCrc | chunk value (EntryFormat, version 1)|
 *  | 'R'  |   2    | 13 bytes       | i32          | i32       | valueLength bytes                   |
 *  +------+--------+----------------+--------------+-----------+------------------------------------+
 * </pre>
 * {@code headerCrc} is the CRC32C of bytes 0..18 followed by the segment's number (8 bytes); records of
 * version 1 (in version 1 files) cover bytes 0..18 only. The chunk value carries offsetInShard, the chunk's
 * CRC32C and its own header CRC, so a segment can be scanned and every record verified without the
 * index, and a read checks that the record at an index entry's place is that entry's.
 *
 * <h2>Spare segments</h2>
 * A segment emptied of live entries is not deleted but renamed {@code spare-<16 hex>.log} (its last number),
 * up to {@value #SPARE_SEGMENTS} of them, and the next new segment reuses one: records then overwrite blocks
 * the file already has, so the fdatasync of each group commit writes data only. Appending to a fresh file
 * also allocates blocks and changes the file's size, which costs every sync an inode write (on this
 * machine's disk the sync of a 640 KiB append took 0.57-0.66 ms and 180-235 µs of CPU, an overwrite
 * 0.28-0.33 ms and 90-120 µs: docs/STASH.md). A reused file still holds its earlier records past the new
 * ones: those fail their header CRC under the new number (numbers only grow, spares' included), so a scan
 * stops where the new records end and a read never takes a stale record for an entry's. A sealed segment's
 * header keeps its sealed length, so opening the log needs no scan but of the newest segment; only
 * version 2 segments become spares (a version 1 record carries no number).
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
    static final int FILE_HEADER_BYTES = 28;
    private static final int V1_FILE_HEADER_BYTES = 20;
    static final int RECORD_HEADER_BYTES = 23;
    private static final int FILE_MAGIC = 0x5356434C;
    private static final int FILE_VERSION = 2;
    private static final byte RECORD_MAGIC = 0x52;
    private static final byte RECORD_VERSION = 2;
    /**
     * Emptied segments kept for reuse (each up to a segment's size of disk, 256 MiB by default). Two cover
     * the usual case, where the oldest segment empties as the active one fills; more only hold disk.
     */
    static final int SPARE_SEGMENTS = 2;
    private static final Pattern NAME = Pattern.compile("seg-([0-9a-f]{16})\\.log");
    private static final Pattern SPARE_NAME = Pattern.compile("spare-([0-9a-f]{16})\\.log");
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
    /** Emptied segment files kept for reuse, oldest first. Guarded by this. */
    private final Deque<Spare> spares = new ArrayDeque<>();
    private final FileChannel forcedLengths;
    private volatile Segment active;

    /** One segment file and what is alive in it. Counts are guarded by the ChunkLog's monitor. */
    static final class Segment {
        final long number;
        final Path path;
        final FileChannel channel;
        /** The file's format: 1 or 2, or 0 when its header could not be read (never reused nor compacted). */
        final int version;
        /** Where its first record starts. */
        final int firstRecord;
        /**
         * Where its records end: the next append goes there. A reused file goes on past it (its earlier
         * records). Written by the appender only.
         */
        volatile long size;
        /** When it was sealed (or found sealed at open), for compaction; 0 while active. */
        volatile long sealedAtMillis;
        long liveEntries;
        long liveBytes;

        Segment(long number, Path path, FileChannel channel, int version, long size) {
            this.number = number;
            this.path = path;
            this.channel = channel;
            this.version = version;
            this.firstRecord = version == 1 ? V1_FILE_HEADER_BYTES : FILE_HEADER_BYTES;
            this.size = size;
        }
    }

    /** An emptied segment's file, kept for reuse; {@code number} is the last it had, {@code bytes} its length. */
    private record Spare(long number, Path path, long bytes) {
    }

    /** What a segment's file header says: its version (0: unreadable or not this segment's) and sealed length. */
    private record FileHeader(int version, long sealedLength) {
    }

    /** What the log holds, for the gauges; {@code spareBytes}: the disk its spares hold. */
    record Stats(int segments, long liveBytes, long deadBytes, long spareBytes) {
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
            List<Spare> spares = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path path : files.sorted().toList()) {
                    Matcher name = NAME.matcher(path.getFileName().toString());
                    Matcher spare = SPARE_NAME.matcher(path.getFileName().toString());
                    if (name.matches()) {
                        long number = Long.parseUnsignedLong(name.group(1), 16);
                        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                        Segment segment;
                        try {
                            segment = openSegment(number, path, channel);
                        } catch (IOException | RuntimeException e) {
                            channel.close();
                            throw e;
                        }
                        segment.sealedAtMillis = Files.getLastModifiedTime(path).toMillis();
                        log.segments.put(number, segment);
                    } else if (spare.matches()) {
                        spares.add(new Spare(Long.parseUnsignedLong(spare.group(1), 16), path, Files.size(path)));
                    }
                }
            }
            // Sorted by name, so by number: the newest are kept.
            for (int i = 0; i < spares.size(); i++) {
                if (i < spares.size() - SPARE_SEGMENTS) {
                    Files.deleteIfExists(spares.get(i).path());
                } else {
                    log.spares.add(spares.get(i));
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

    /**
     * A segment found at open: a sealed one ends at its header's sealed length, one that was active (sealed
     * length 0) where its valid records end, and one of version 1 at its file's end (its files were never reused).
     */
    private static Segment openSegment(long number, Path path, FileChannel channel) throws IOException {
        long length = channel.size();
        FileHeader header = readHeader(channel, number);
        if (header.version() == 0) {
            LOG.warn("chunk log segment {} has no valid header for segment {}: its records are served, and it is"
                    + " deleted once none is alive, never reused", path, number);
            return new Segment(number, path, channel, 0, length);
        }
        if (header.version() == 1 || header.sealedLength() > 0) {
            return new Segment(number, path, channel, header.version(),
                    header.version() == 1 ? length : Math.min(length, header.sealedLength()));
        }
        Segment segment = new Segment(number, path, channel, header.version(), length);
        segment.size = recordsEnd(segment);
        return segment;
    }

    private static FileHeader readHeader(FileChannel channel, long number) throws IOException {
        if (channel.size() < V1_FILE_HEADER_BYTES) {
            return new FileHeader(0, 0);
        }
        byte[] header = new byte[(int) Math.min(FILE_HEADER_BYTES, channel.size())];
        readFully(channel, header, 0);
        if (EntryFormat.getInt(header, 0) != FILE_MAGIC || EntryFormat.getLong(header, 8) != number) {
            return new FileHeader(0, 0);
        }
        int version = EntryFormat.getInt(header, 4);
        if (version == 1 && Crc32c.of(header, 0, 16) == EntryFormat.getInt(header, 16)) {
            return new FileHeader(1, 0);
        }
        if (version == 2 && header.length == FILE_HEADER_BYTES
                && Crc32c.of(header, 0, 24) == EntryFormat.getInt(header, 24)) {
            return new FileHeader(2, EntryFormat.getLong(header, 16));
        }
        return new FileHeader(0, 0);
    }

    private static byte[] fileHeader(long number, long sealedLength) {
        byte[] header = new byte[FILE_HEADER_BYTES];
        EntryFormat.putInt(header, 0, FILE_MAGIC);
        EntryFormat.putInt(header, 4, FILE_VERSION);
        EntryFormat.putLong(header, 8, number);
        EntryFormat.putLong(header, 16, sealedLength);
        EntryFormat.putInt(header, 24, Crc32c.of(header, 0, 24));
        return header;
    }

    private static void writeAt(FileChannel channel, byte[] bytes, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer, position + buffer.position());
        }
    }

    /** Writes a version 2 segment's sealed length into its header (forced with the segment after). */
    private static void recordSealedLength(Segment segment) throws IOException {
        if (segment.version == FILE_VERSION) {
            writeAt(segment.channel, fileHeader(segment.number, segment.size), 0);
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
                Segment last = segments.get(newest.get());
                recordSealedLength(last);
                last.channel.force(false);
            }
            // After every number a spare's stale records may carry, so that none can pass for a new record.
            long next = newest.map(n -> n + 1).orElse(0L);
            synchronized (this) {
                for (Spare spare : spares) {
                    next = Math.max(next, spare.number() + 1);
                }
            }
            active = create(next);
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
                    if (at + size > segmentBytes && at > segment.firstRecord) {
                        break;
                    }
                    buffers.add(ByteBuffer.wrap(recordHeader(ids.get(i), length, segment.number)));
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
            recordSealedLength(sealed);
            force(sealed);
            sealed.sealedAtMillis = System.currentTimeMillis();
            active = create(sealed.number + 1);
        } catch (IOException e) {
            throw new ShardStoreException("roll chunk log " + dir, e.toString(), e);
        }
    }

    /**
     * A new segment, in a spare's file when there is one: header written and forced, and its directory entry
     * synced, before any record goes in.
     */
    private Segment create(long number) throws IOException {
        Path path = dir.resolve(String.format("seg-%016x.log", number));
        Spare spare;
        synchronized (this) {
            spare = spares.pollFirst();
        }
        FileChannel channel = null;
        if (spare != null) {
            try {
                Files.move(spare.path(), path, StandardCopyOption.ATOMIC_MOVE);
                channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                LOG.warn("cannot reuse spare chunk log segment {} as {}; starting a new file", spare.path(), path, e);
                Files.deleteIfExists(path);
                spare = null;
            }
        }
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        try {
            writeAt(channel, fileHeader(number, 0), 0);
            Segment segment = new Segment(number, path, channel, FILE_VERSION, FILE_HEADER_BYTES);
            force(segment);
            syncDirectory();
            segments.put(number, segment);
            LOG.debug("chunk log segment {} started{}", path, spare == null ? "" : " in spare " + spare.path());
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
        String problem = checkRecordHeader(header, id, valueLength, location.segment());
        if (problem != null) {
            throw new CorruptEntryException("read chunk", id, problem + " in the record at " + location + " of "
                    + segment.path);
        }
        return Optional.of(value);
    }

    private static void readFully(Segment segment, byte[] into, long position) throws IOException {
        readFully(segment.channel, into, position);
    }

    private static void readFully(FileChannel channel, byte[] into, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(into);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException();
            }
        }
    }

    private static byte[] recordHeader(ShardId id, int valueLength, long segment) {
        byte[] header = new byte[RECORD_HEADER_BYTES];
        header[0] = RECORD_MAGIC;
        header[1] = RECORD_VERSION;
        System.arraycopy(id.encode(), 0, header, 2, ShardId.ENCODED_LENGTH);
        EntryFormat.putInt(header, 15, valueLength);
        EntryFormat.putInt(header, 19, recordHeaderCrc(header, segment));
        return header;
    }

    /** The CRC32C of a version 2 record header's bytes 0..18 and the number of the segment it was written in. */
    private static int recordHeaderCrc(byte[] header, long segment) {
        byte[] covered = Arrays.copyOf(header, 19 + Long.BYTES);
        EntryFormat.putLong(covered, 19, segment);
        return Crc32c.of(covered);
    }

    /**
     * What is wrong with a record header read in segment {@code segment}, or null when it is {@code id}'s with
     * that value length (null and -1: any record).
     */
    private static String checkRecordHeader(byte[] header, ShardId id, int valueLength, long segment) {
        if (header[0] != RECORD_MAGIC || (header[1] != 1 && header[1] != RECORD_VERSION)) {
            return String.format("bad record magic or version %02x%02x", header[0], header[1]);
        }
        int crc = header[1] == 1 ? Crc32c.of(header, 0, 19) : recordHeaderCrc(header, segment);
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
        try {
            scan(segment, out);
        } catch (ClosedChannelException e) {
            return List.of();
        } catch (IOException e) {
            throw new ShardStoreException("scan " + segment.path, e.toString(), e);
        }
        return out;
    }

    /** Where the whole records of a segment end (its size bounding them): what {@link #scan} reads. */
    private static long recordsEnd(Segment segment) throws IOException {
        return scan(segment, new ArrayList<>());
    }

    /** Adds the segment's whole records to {@code out}; returns where the last one ends. */
    private static long scan(Segment segment, List<ScannedRecord> out) throws IOException {
        byte[] header = new byte[RECORD_HEADER_BYTES];
        long at = segment.firstRecord;
        while (at + RECORD_HEADER_BYTES <= segment.size) {
            readFully(segment, header, at);
            if (checkRecordHeader(header, null, -1, segment.number) != null) {
                break;
            }
            int valueLength = EntryFormat.getInt(header, 15);
            long end = at + RECORD_HEADER_BYTES + valueLength;
            if (valueLength < EntryFormat.CHUNK_HEADER_BYTES || end > segment.size) {
                break;
            }
            ShardId id = ShardId.decode(Arrays.copyOfRange(header, 2, 2 + ShardId.ENCODED_LENGTH));
            out.add(new ScannedRecord(id, new ChunkLocation(segment.number, at), valueLength));
            at = end;
        }
        return at;
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
            long records = segment.size - segment.firstRecord;
            if (sealed(segment) && segment.version != 0 && segment.liveEntries > 0 && segment.sealedAtMillis <= sealedBeforeMillis
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

    /**
     * Deletes these segments (taken from {@link #emptySealedSegments()} before a covering sync): each becomes a
     * spare while there are fewer than {@value #SPARE_SEGMENTS}, else its file is deleted.
     */
    void delete(List<Long> numbers) {
        for (long number : numbers) {
            Segment segment = segments.remove(number);
            if (segment == null) {
                continue;
            }
            try {
                segment.channel.close();
                if (segment.version == FILE_VERSION && spareWanted()) {
                    Path spare = dir.resolve(String.format("spare-%016x.log", number));
                    Files.move(segment.path, spare, StandardCopyOption.ATOMIC_MOVE);
                    long bytes = Files.size(spare);
                    synchronized (this) {
                        spares.addLast(new Spare(number, spare, bytes));
                    }
                    LOG.debug("chunk log segment {} emptied: kept as {}", segment.path, spare);
                } else {
                    Files.deleteIfExists(segment.path);
                    LOG.debug("chunk log segment {} deleted: nothing in it is alive", segment.path);
                }
            } catch (IOException e) {
                LOG.warn("cannot delete chunk log segment {}; it is deleted at the next open", segment.path, e);
            }
        }
    }

    private synchronized boolean spareWanted() {
        return spares.size() < SPARE_SEGMENTS;
    }

    synchronized Stats stats() {
        long live = 0;
        long dead = 0;
        for (Segment segment : segments.values()) {
            live += segment.liveBytes;
            dead += Math.max(0, segment.size - segment.firstRecord - segment.liveBytes);
        }
        return new Stats(segments.size(), live, dead, spares.stream().mapToLong(Spare::bytes).sum());
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
