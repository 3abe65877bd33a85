package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.fs.CachedRead;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The on-disk format of one shard file: a header naming the shard, then one record per chunk in
 * arrival order, each with its logical offset in the shard, its length and its CRC32C. The
 * layout is documented, with its version history, in {@code docs/POD.md}.
 *
 * <pre>
 * file header (32 bytes, big-endian)
 *  0        4       6       8                        21          28          32
 *  +--------+-------+-------+------------------------+-----------+-----------+
 *  | magic  | vers. | flags | ShardId (13)           | reserved  | headerCrc |
 *  | "SVSH" |  u16  |  u16  | vault u32,shard u8,    |  7 x 0    | CRC32C of |
 *  |        |       |       | fileId u64             |           | bytes 0-27|
 *  +--------+-------+-------+------------------------+-----------+-----------+
 * chunk record (28-byte header + data)
 *  0        4                12        16        20         24          28
 *  +--------+----------------+---------+---------+----------+-----------+---------+
 *  | magic  | offsetInShard  | length  | dataCrc | reserved | headerCrc | data... |
 *  | "SVCK" |      u64       |   u32   |   u32   |   u32 0  | bytes 0-23| length  |
 *  +--------+----------------+---------+---------+----------+-----------+---------+
 * </pre>
 *
 * <p>A record is valid when its header CRC matches and its data lies within the file; the first
 * invalid record ends the file (a torn append), and the next append truncates it. The data CRC is
 * checked on every read of the chunk and by recovery, never skipped. Records never overlap in
 * logical offsets; a chunk written twice (a retry) is recognised by equal offset, length and CRC.
 *
 * <p>Stateless; callers hold the shard's lock around every call on one file.
 */
public final class ShardFile {
    /** "SVSH": shardvault shard. */
    public static final int FILE_MAGIC = 0x53565348;
    /** "SVCK": shardvault chunk. */
    public static final int RECORD_MAGIC = 0x5356434B;
    /** The version this build writes. */
    public static final int CURRENT_VERSION = 1;
    /** The oldest version this build reads. */
    public static final int MIN_COMPATIBLE_VERSION = 1;
    public static final int FILE_HEADER_BYTES = 32;
    public static final int RECORD_HEADER_BYTES = 28;

    private ShardFile() {
    }

    /** One chunk record found in a file. */
    public record Chunk(long offsetInShard, int length, int crc32c, long dataPosition) {
        long end() {
            return offsetInShard + length;
        }
    }

    /**
     * What a scan found: the records in logical order and where the valid part of the file ends.
     *
     * @param validEnd file position after the last valid record; later bytes are a torn append
     */
    public record Layout(ShardId id, List<Chunk> chunks, long validEnd, long fileSize) {
        /** A file of the shard with its header and no record yet. */
        public static Layout empty(ShardId id) {
            return new Layout(id, List.of(), FILE_HEADER_BYTES, FILE_HEADER_BYTES);
        }

        /** The shard's logical length: the end of its last chunk. */
        public long shardLength() {
            return chunks.isEmpty() ? 0 : chunks.get(chunks.size() - 1).end();
        }

        /**
         * This layout with one more record at its valid end, as {@link #append} (or {@link #create}, on a
         * layout of no records ending at the file header) leaves the file.
         */
        public Layout withAppended(long offsetInShard, int length, int crc32c) {
            List<Chunk> more = new ArrayList<>(chunks.size() + 1);
            more.addAll(chunks);
            more.add(new Chunk(offsetInShard, length, crc32c, validEnd + RECORD_HEADER_BYTES));
            more.sort(Comparator.comparingLong(Chunk::offsetInShard));
            long end = validEnd + RECORD_HEADER_BYTES + length;
            return new Layout(id, Collections.unmodifiableList(more), end, end);
        }

        /** The record at exactly this offset, if any. */
        public Optional<Chunk> chunkAt(long offsetInShard) {
            for (Chunk c : chunks) {
                if (c.offsetInShard() == offsetInShard) {
                    return Optional.of(c);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * Writes a new, empty file's header and its first chunk record in one gathering write: one
     * syscall for the new file. A crash may keep any prefix of it; a prefix shorter than the
     * header is a bad header (recovery restores the shard from the stash), a longer one is a
     * header and a torn record, which {@link #scan} reads as "no record".
     *
     * @param data the chunk, as the buffers of {@link ByteBuf#nioBuffers()}; they are consumed
     * @return the bytes written, headers included
     */
    public static long create(TomeFile file, ShardId id, long offsetInShard, int crc32c, ByteBuffer[] data)
            throws IOException {
        ByteBuffer headers = ByteBuffer.allocate(FILE_HEADER_BYTES + RECORD_HEADER_BYTES);
        headers.putInt(FILE_MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0);
        headers.put(id.encode());
        headers.position(28);
        headers.putInt(Crc32c.of(headers.array(), 0, 28));
        return writeRecord(file, 0, headers, offsetInShard, crc32c, data);
    }

    /** Reads the header and every record header; fails if the file header is unreadable. */
    public static Layout scan(TomeFile file, Path path) throws IOException {
        long size = file.size();
        ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES);
        if (file.read(header, 0) < FILE_HEADER_BYTES) {
            throw new ShardStoreException(ErrorCode.CORRUPT, "shard file " + path + " is shorter than its header");
        }
        header.flip();
        if (header.getInt(0) != FILE_MAGIC || header.getInt(28) != Crc32c.of(header.array(), 0, 28)) {
            throw new ShardStoreException(ErrorCode.CORRUPT, "shard file " + path + " has a bad header");
        }
        int version = header.getShort(4) & 0xFFFF;
        if (version < MIN_COMPATIBLE_VERSION || version > CURRENT_VERSION) {
            throw new ShardStoreException(ErrorCode.CORRUPT, "shard file " + path + " has version " + version
                    + ", this build reads " + MIN_COMPATIBLE_VERSION + ".." + CURRENT_VERSION);
        }
        byte[] key = new byte[ShardId.ENCODED_LENGTH];
        header.position(8);
        header.get(key);
        ShardId id = ShardId.decode(key);

        List<Chunk> chunks = new ArrayList<>();
        long position = FILE_HEADER_BYTES;
        ByteBuffer rec = ByteBuffer.allocate(RECORD_HEADER_BYTES);
        while (position + RECORD_HEADER_BYTES <= size) {
            rec.clear();
            if (file.read(rec, position) < RECORD_HEADER_BYTES) {
                break;
            }
            if (rec.getInt(0) != RECORD_MAGIC || rec.getInt(24) != Crc32c.of(rec.array(), 0, 24)) {
                break;
            }
            long offset = rec.getLong(4);
            long length = rec.getInt(12) & 0xFFFFFFFFL;
            long dataPosition = position + RECORD_HEADER_BYTES;
            if (offset < 0 || length > Integer.MAX_VALUE || dataPosition + length > size) {
                break;
            }
            chunks.add(new Chunk(offset, (int) length, rec.getInt(16), dataPosition));
            position = dataPosition + length;
        }
        chunks.sort(Comparator.comparingLong(Chunk::offsetInShard));
        return new Layout(id, Collections.unmodifiableList(chunks), position, size);
    }

    /**
     * Appends a chunk after the valid records, truncating a torn tail first. The record header and
     * the data go to the kernel in one gathering write.
     *
     * @param data the chunk, as the buffers of {@link ByteBuf#nioBuffers()}; they are consumed
     * @return the bytes written, header included
     */
    public static long append(TomeFile file, Layout layout, long offsetInShard, int crc32c, ByteBuffer[] data)
            throws IOException {
        if (layout.fileSize() > layout.validEnd()) {
            file.truncate(layout.validEnd());
        }
        return writeRecord(file, layout.validEnd(), ByteBuffer.allocate(RECORD_HEADER_BYTES), offsetInShard,
                crc32c, data);
    }

    /**
     * Finishes {@code headers} (positioned where the record header goes, with room for exactly it)
     * and writes them and the data at {@code position} in one call.
     */
    private static long writeRecord(TomeFile file, long position, ByteBuffer headers, long offsetInShard,
                                    int crc32c, ByteBuffer[] data) throws IOException {
        long length = 0;
        for (ByteBuffer part : data) {
            length += part.remaining();
        }
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a chunk is at most 2 GiB: " + length);
        }
        int rec = headers.position();
        headers.putInt(RECORD_MAGIC).putLong(offsetInShard).putInt((int) length).putInt(crc32c).putInt(0);
        headers.putInt(Crc32c.of(headers.array(), rec, 24));
        headers.flip();
        ByteBuffer[] all = new ByteBuffer[data.length + 1];
        all[0] = headers;
        System.arraycopy(data, 0, all, 1, data.length);
        long written = headers.remaining() + length;
        file.write(all, position);
        return written;
    }

    /**
     * Checks a new chunk against the records already there.
     *
     * @return true if an identical chunk is already stored (a retried write)
     * @throws ShardStoreException BAD_REQUEST if it overlaps a different chunk
     */
    public static boolean checkNewChunk(Layout layout, long offsetInShard, int length, int crc32c)
            throws ShardStoreException {
        long end = offsetInShard + length;
        for (Chunk c : layout.chunks()) {
            if (c.offsetInShard() == offsetInShard && c.length() == length && c.crc32c() == crc32c) {
                return true;
            }
            if (offsetInShard < c.end() && c.offsetInShard() < end) {
                throw new ShardStoreException(ErrorCode.BAD_REQUEST, "chunk [" + offsetInShard + ", " + end
                        + ") of shard " + layout.id() + " overlaps a different stored chunk [" + c.offsetInShard()
                        + ", " + c.end() + ")");
            }
        }
        return false;
    }

    /** Reads one chunk's data and returns whether it matches its CRC. */
    public static boolean verify(TomeFile file, Chunk chunk) throws IOException {
        ByteBuffer data = ByteBuffer.allocate(chunk.length());
        if (file.read(data, chunk.dataPosition()) < chunk.length()) {
            return false;
        }
        data.flip();
        return Crc32c.of(data) == chunk.crc32c();
    }

    /**
     * Reads {@code [offset, offset + length)} of the shard. Every chunk the range touches is read
     * whole and checked against its CRC, so what is returned is exactly what was verified.
     *
     * @throws ShardStoreException BAD_REQUEST for a range outside the stored chunks, CORRUPT on a CRC mismatch
     */
    public static ByteBuf readRange(TomeFile file, Layout layout, Path path, long offset, int length,
                                    ByteBufAllocator alloc) throws IOException {
        return readRange(file, layout, path, offset, length, alloc, false);
    }

    /**
     * {@link #readRange}, if every byte it reads is in the page cache ({@link TomeFile#readIfCached}); else
     * null, and nothing was read that the caller must release.
     */
    public static ByteBuf readRangeIfCached(TomeFile file, Layout layout, Path path, long offset, int length,
                                            ByteBufAllocator alloc) throws IOException {
        return readRange(file, layout, path, offset, length, alloc, true);
    }

    private static ByteBuf readRange(TomeFile file, Layout layout, Path path, long offset, int length,
                                     ByteBufAllocator alloc, boolean cachedOnly) throws IOException {
        long end = offset + length;
        if (offset < 0 || length < 0 || end > layout.shardLength()) {
            throw new ShardStoreException(ErrorCode.BAD_REQUEST, "range [" + offset + ", " + end + ") is outside shard "
                    + layout.id() + " of length " + layout.shardLength());
        }
        List<Chunk> touched = new ArrayList<>();
        long covered = offset;
        for (Chunk c : layout.chunks()) {
            if (c.end() <= offset || c.offsetInShard() >= end) {
                continue;
            }
            if (c.offsetInShard() > covered) {
                break;
            }
            touched.add(c);
            covered = Math.max(covered, c.end());
        }
        if (covered < end) {
            throw new ShardStoreException(ErrorCode.BAD_REQUEST, "shard " + layout.id() + " has no chunk at offset "
                    + covered + " (a chunk was never written)");
        }
        if (touched.isEmpty()) {
            return alloc.buffer(0);
        }
        long first = touched.get(0).offsetInShard();
        long last = touched.get(touched.size() - 1).end();
        ByteBuf out = alloc.directBuffer(Math.toIntExact(last - first));
        boolean ok = false;
        try {
            for (Chunk c : touched) {
                int at = Math.toIntExact(c.offsetInShard() - first);
                ByteBuffer window = out.nioBuffer(at, c.length());
                if (cachedOnly && file.readIfCached(window, c.dataPosition()) == CachedRead.NOT_CACHED) {
                    return null;
                }
                if (!cachedOnly && file.read(window, c.dataPosition()) < c.length()) {
                    throw new ShardStoreException(ErrorCode.CORRUPT, "chunk at " + c.offsetInShard() + " of "
                            + path + " is truncated");
                }
                window.flip();
                int actual = Crc32c.of(window);
                if (actual != c.crc32c()) {
                    throw new ShardStoreException(ErrorCode.CORRUPT, "chunk at " + c.offsetInShard() + " of "
                            + path + " has CRC " + Crc32c.format(actual) + ", stored " + Crc32c.format(c.crc32c()));
                }
            }
            out.writerIndex(Math.toIntExact(last - first));
            // A whole-chunk read (a GET's usual one) is the buffer itself: no derived buffer to allocate.
            ByteBuf answer = offset == first && length == out.readableBytes() ? out
                    : out.slice(Math.toIntExact(offset - first), length);
            ok = true;
            return answer;
        } finally {
            if (!ok) {
                out.release();
            }
        }
    }
}
