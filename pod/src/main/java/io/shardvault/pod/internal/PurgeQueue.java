package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The durable purge queue of one pod instance: an append-only log of "shard X is fsynced here"
 * events, in segment files, with a checkpoint of how far the sender has delivered. An event counts
 * as queued only when {@link #append} returns: its record is written and the segment fsynced.
 *
 * <pre>
 * segment file purge-&lt;seq as 16 hex&gt;.log
 *  segment header (24 bytes)                 event record (27 bytes)
 *  +--------+------+------+-------+-------+   +--------+---------+-------------+------------------+
 *  | magic  | vers | rsvd | seq   | crc   |   | length | crc     | ShardId(13) | enqueuedAtMillis |
 *  | "SVPQ" | u16  | u16  | u64   | u32 * |   |  u16   | u32 **  |             |       u64        |
 *  +--------+------+------+-------+-------+   +--------+---------+-------------+------------------+
 *   * CRC32C of bytes 0-15, then 4 reserved zero bytes.  ** CRC32C of the payload (the 21 bytes after it).
 * checkpoint file consumed.ckpt (28 bytes), replaced atomically (write tmp, fsync, rename, fsync dir)
 *  +--------+------+------+-------------+----------------+-------+
 *  | "SVPC" | u16  | u16  | segment u64 | offset u64     | crc32c of bytes 0-23 |
 *  +--------+------+------+-------------+----------------+-------+
 * </pre>
 * Records are length-prefixed so later versions can carry more per event. A torn record at the end
 * of the newest segment (a crash mid-append, never acknowledged) is truncated when the queue opens.
 *
 * <p>Memory is bounded whatever the backlog: only segment names and counters are held; readers
 * page events from disk ({@link #peek}). A segment rolls over at {@code segmentBytes}; segments
 * wholly before the checkpoint are deleted ({@link #commit}).
 *
 * <p>Thread-safe: appends are serialised (one writer at a time, each append one fsync — a group
 * commit of its batch); there is one reader, the sender. Not usable after {@link #close()}.
 */
public final class PurgeQueue implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(PurgeQueue.class);

    static final int SEGMENT_MAGIC = 0x53565051; // "SVPQ"
    static final int CHECKPOINT_MAGIC = 0x53565043; // "SVPC"
    static final int CURRENT_VERSION = 1;
    static final int MIN_COMPATIBLE_VERSION = 1;
    static final int SEGMENT_HEADER_BYTES = 24;
    static final int PAYLOAD_BYTES = ShardId.ENCODED_LENGTH + 8;
    static final int RECORD_BYTES = 2 + 4 + PAYLOAD_BYTES;
    static final int CHECKPOINT_BYTES = 28;
    private static final String CHECKPOINT = "consumed.ckpt";

    /** A position in the queue: a segment and a byte offset in it. */
    public record Position(long segment, long offset) implements Comparable<Position> {
        @Override
        public int compareTo(Position o) {
            int c = Long.compare(segment, o.segment);
            return c != 0 ? c : Long.compare(offset, o.offset);
        }
    }

    /** One event as read back. */
    public record Event(ShardId id, long enqueuedAtMillis) {
    }

    /** A page of events and the position just after the last of them. */
    public record Batch(List<Event> events, Position end) {
    }

    private final Path directory;
    private final long segmentBytes;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition appended = lock.newCondition();
    /** Segment sequence number to its valid length; the last one is being appended to. */
    private final TreeMap<Long, Long> segments = new TreeMap<>();
    private final AtomicLong depth = new AtomicLong();
    private volatile long oldestEnqueuedAtMillis = -1;
    /** Depth at which an append wakes {@link #awaitBatch}: its batch size. Guarded by {@code lock}. */
    private long wakeDepth = 1;
    private final AtomicLong peeks = new AtomicLong();
    private FileChannel active;
    private long activeSegment;
    private Position consumed;
    private boolean closed;

    private PurgeQueue(Path directory, long segmentBytes, Clock clock) {
        this.directory = directory;
        this.segmentBytes = segmentBytes;
        this.clock = clock;
    }

    /** Opens (or creates) the queue in {@code directory}, repairing a torn last record. */
    public static PurgeQueue open(Path directory, long segmentBytes, Clock clock) throws IOException {
        if (segmentBytes < SEGMENT_HEADER_BYTES + RECORD_BYTES) {
            throw new IllegalArgumentException("segmentBytes too small: " + segmentBytes);
        }
        Files.createDirectories(directory);
        PurgeQueue queue = new PurgeQueue(directory, segmentBytes, clock);
        queue.load();
        return queue;
    }

    private void load() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith("purge-") && name.endsWith(".log") && name.length() == 6 + 16 + 4) {
                    segments.put(Long.parseUnsignedLong(name.substring(6, 22), 16), 0L);
                }
            }
        }
        for (Map.Entry<Long, Long> e : segments.entrySet()) {
            e.setValue(scanValidEnd(e.getKey()));
        }
        Position checkpoint = readCheckpoint();
        if (segments.isEmpty()) {
            long seq = checkpoint == null ? 1 : checkpoint.segment() + 1;
            createSegment(seq);
        }
        activeSegment = segments.lastKey();
        long validEnd = segments.get(activeSegment);
        active = FileChannel.open(segmentPath(activeSegment), StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (active.size() > validEnd) {
            LOG.warn("purge queue {}: truncating a torn record at segment={} offset={} size={}", directory,
                    activeSegment, validEnd, active.size());
            active.truncate(validEnd);
            active.force(true);
        }
        long first = segments.firstKey();
        if (checkpoint == null || checkpoint.segment() < first) {
            consumed = new Position(first, SEGMENT_HEADER_BYTES);
        } else {
            consumed = checkpoint;
        }
        long count = 0;
        for (Map.Entry<Long, Long> e : segments.tailMap(consumed.segment(), true).entrySet()) {
            long start = e.getKey() == consumed.segment() ? consumed.offset() : SEGMENT_HEADER_BYTES;
            count += Math.max(0, (e.getValue() - start) / RECORD_BYTES);
        }
        depth.set(count);
        refreshOldest();
        LOG.info("purge queue {} opened: segments={} depth={} consumed={}", directory, segments.size(), count,
                consumed);
    }

    private Path segmentPath(long seq) {
        return directory.resolve("purge-" + HexFormat.of().toHexDigits(seq) + ".log");
    }

    private void createSegment(long seq) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        header.putInt(SEGMENT_MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0).putLong(seq);
        header.putInt(Crc32c.of(header.array(), 0, 16)).putInt(0);
        header.flip();
        try (FileChannel ch = FileChannel.open(segmentPath(seq), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            while (header.hasRemaining()) {
                ch.write(header);
            }
            ch.force(true);
        }
        syncDirectory();
        segments.put(seq, (long) SEGMENT_HEADER_BYTES);
    }

    /** Scans a segment's records and returns where the valid ones end. */
    private long scanValidEnd(long seq) throws IOException {
        try (FileChannel ch = FileChannel.open(segmentPath(seq), StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
            readFully(ch, header, 0);
            if (header.position() < SEGMENT_HEADER_BYTES || header.getInt(0) != SEGMENT_MAGIC
                    || header.getInt(16) != Crc32c.of(header.array(), 0, 16) || header.getLong(8) != seq) {
                throw new IOException("purge queue segment " + segmentPath(seq) + " has a bad header");
            }
            int version = header.getShort(4) & 0xFFFF;
            if (version < MIN_COMPATIBLE_VERSION || version > CURRENT_VERSION) {
                throw new IOException("purge queue segment " + segmentPath(seq) + " has version " + version);
            }
            long size = ch.size();
            long position = SEGMENT_HEADER_BYTES;
            ByteBuffer page = ByteBuffer.allocate(RECORD_BYTES * 1024);
            while (position + RECORD_BYTES <= size) {
                page.clear();
                readFully(ch, page, position);
                page.flip();
                while (page.remaining() >= RECORD_BYTES) {
                    if (!validRecord(page, page.position())) {
                        return position;
                    }
                    page.position(page.position() + RECORD_BYTES);
                    position += RECORD_BYTES;
                }
            }
            return position;
        }
    }

    private static boolean validRecord(ByteBuffer page, int at) {
        int length = page.getShort(at) & 0xFFFF;
        if (length != PAYLOAD_BYTES) {
            return false;
        }
        int crc = page.getInt(at + 2);
        return crc == Crc32c.of(page.slice(at + 6, PAYLOAD_BYTES));
    }

    private static void readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = ch.read(dst, at);
            if (n < 0) {
                break;
            }
            at += n;
        }
    }

    private Position readCheckpoint() throws IOException {
        Path path = directory.resolve(CHECKPOINT);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (bytes.length != CHECKPOINT_BYTES || b.getInt(0) != CHECKPOINT_MAGIC
                || b.getInt(24) != Crc32c.of(bytes, 0, 24)) {
            // The checkpoint is replaced atomically, so this is damage, not a torn write: start
            // from the oldest segment; delivery is at-least-once and purges are idempotent.
            LOG.warn("purge queue {}: checkpoint is damaged; redelivering from the oldest segment", directory);
            return null;
        }
        return new Position(b.getLong(8), b.getLong(16));
    }

    /**
     * Appends one event per id and fsyncs; when this returns, the events are queued durably.
     */
    public void append(Collection<ShardId> ids) throws IOException {
        if (ids.isEmpty()) {
            return;
        }
        long now = clock.millis();
        lock.lock();
        try {
            if (closed) {
                throw new IOException("purge queue " + directory + " is closed");
            }
            long size = segments.get(activeSegment);
            long bytes = (long) ids.size() * RECORD_BYTES;
            if (size > SEGMENT_HEADER_BYTES && size + bytes > segmentBytes) {
                active.close();
                createSegment(activeSegment + 1);
                activeSegment = activeSegment + 1;
                active = FileChannel.open(segmentPath(activeSegment), StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                size = SEGMENT_HEADER_BYTES;
            }
            ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(bytes));
            for (ShardId id : ids) {
                int at = buf.position();
                buf.putShort((short) PAYLOAD_BYTES).putInt(0);
                buf.put(id.encode()).putLong(now);
                buf.putInt(at + 2, Crc32c.of(buf.array(), at + 6, PAYLOAD_BYTES));
            }
            buf.flip();
            long at = size;
            while (buf.hasRemaining()) {
                at += active.write(buf, at);
            }
            active.force(false);
            segments.put(activeSegment, at);
            long before = depth.getAndAdd(ids.size());
            if (before == 0) {
                oldestEnqueuedAtMillis = now;
            }
            if (before == 0 || before + ids.size() >= wakeDepth) {
                appended.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads up to {@code max} undelivered events from the checkpoint on, without consuming them.
     * Returns an empty batch when there is nothing to deliver.
     */
    public Batch peek(int max) throws IOException {
        peeks.incrementAndGet();
        Position from;
        TreeMap<Long, Long> ends;
        lock.lock();
        try {
            from = consumed;
            ends = new TreeMap<>(segments.tailMap(consumed.segment(), true));
        } finally {
            lock.unlock();
        }
        List<Event> events = new ArrayList<>();
        Position end = from;
        for (Map.Entry<Long, Long> seg : ends.entrySet()) {
            long start = seg.getKey() == from.segment() ? from.offset() : SEGMENT_HEADER_BYTES;
            long validEnd = seg.getValue();
            if (start >= validEnd) {
                end = new Position(seg.getKey(), validEnd);
                continue;
            }
            long wanted = Math.min(validEnd - start, (long) (max - events.size()) * RECORD_BYTES);
            ByteBuffer page = ByteBuffer.allocate(Math.toIntExact(wanted));
            try (FileChannel ch = FileChannel.open(segmentPath(seg.getKey()), StandardOpenOption.READ)) {
                readFully(ch, page, start);
            }
            page.flip();
            long offset = start;
            byte[] key = new byte[ShardId.ENCODED_LENGTH];
            while (page.remaining() >= RECORD_BYTES) {
                int at = page.position();
                if (!validRecord(page, at)) {
                    throw new IOException("purge queue segment " + segmentPath(seg.getKey()) + " has a bad record at "
                            + offset);
                }
                page.position(at + 6);
                page.get(key);
                events.add(new Event(ShardId.decode(key), page.getLong()));
                offset += RECORD_BYTES;
            }
            end = new Position(seg.getKey(), offset);
            if (events.size() >= max) {
                break;
            }
        }
        return new Batch(events, end);
    }

    /**
     * Waits until a batch is worth delivering: {@code batchSize} events wait, or the oldest has
     * waited {@code lingerMillis} (capped at the linger, so a wall clock stepping back cannot stall
     * it); or until {@code idleNanos} pass with nothing queued (a backstop), or the queue closes.
     * No polling: an append wakes the waiter only when it makes a batch due sooner (the first event
     * of an empty queue starts the linger, a batch filling up ends it).
     */
    public void awaitBatch(int batchSize, long lingerMillis, long idleNanos) throws InterruptedException {
        lock.lock();
        try {
            wakeDepth = batchSize;
            long idleDeadline = System.nanoTime() + idleNanos;
            while (!closed) {
                long waiting = depth.get();
                long nanos;
                if (waiting >= batchSize) {
                    return;
                }
                if (waiting > 0) {
                    long age = clock.millis() - oldestEnqueuedAtMillis;
                    long left = Math.min(lingerMillis, lingerMillis - age);
                    if (left <= 0) {
                        return;
                    }
                    nanos = TimeUnit.MILLISECONDS.toNanos(left);
                } else {
                    nanos = idleDeadline - System.nanoTime();
                    if (nanos <= 0) {
                        return;
                    }
                }
                appended.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks everything before {@code upTo} (the end of a delivered {@link Batch}) consumed: the
     * checkpoint is replaced durably, then fully consumed segments are deleted.
     */
    public void commit(Batch delivered) throws IOException {
        Position upTo = delivered.end();
        lock.lock();
        try {
            if (upTo.compareTo(consumed) <= 0) {
                return;
            }
            writeCheckpoint(upTo);
            consumed = upTo;
            depth.addAndGet(-delivered.events().size());
            List<Long> done = new ArrayList<>(segments.headMap(upTo.segment(), false).keySet());
            for (Long seq : done) {
                Files.deleteIfExists(segmentPath(seq));
                segments.remove(seq);
            }
            if (!done.isEmpty()) {
                syncDirectory();
            }
        } finally {
            lock.unlock();
        }
        refreshOldest();
    }

    private void writeCheckpoint(Position p) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(CHECKPOINT_BYTES);
        b.putInt(CHECKPOINT_MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0)
                .putLong(p.segment()).putLong(p.offset());
        b.putInt(Crc32c.of(b.array(), 0, 24));
        b.flip();
        StateFiles.replace(directory, CHECKPOINT, b);
    }

    /** Under the lock, so that an append racing a commit cannot leave a queued event without its age. */
    private void refreshOldest() throws IOException {
        lock.lock();
        try {
            Batch head = peek(1);
            oldestEnqueuedAtMillis = head.events().isEmpty() ? -1 : head.events().get(0).enqueuedAtMillis();
        } finally {
            lock.unlock();
        }
    }

    private void syncDirectory() throws IOException {
        StateFiles.syncDirectory(directory);
    }

    /** Events appended and not yet delivered. */
    public long depth() {
        return depth.get();
    }

    /** Age of the oldest undelivered event in milliseconds, 0 when there is none. */
    public long oldestAgeMillis() {
        long oldest = oldestEnqueuedAtMillis;
        return oldest < 0 ? 0 : Math.max(0, clock.millis() - oldest);
    }

    /** {@link #peek} calls so far, reads of the queue from disk (for tests that the sender does not poll). */
    long peekCount() {
        return peeks.get();
    }

    /** Segment files on disk (for tests of rollover and trimming). */
    int segmentCount() {
        lock.lock();
        try {
            return segments.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            appended.signalAll();
            active.close();
        } finally {
            lock.unlock();
        }
    }
}
