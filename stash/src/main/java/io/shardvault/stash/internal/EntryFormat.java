package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;

/**
 * The on-disk values of the stash. An entry is a chunk value, appended to a segment of the
 * partition's {@link ChunkLog}, and a meta value in RocksDB (column family {@code meta}, key
 * {@link ShardId#encode()}) that says where the chunk value is.
 *
 * <h2>Chunk value (version 1, big-endian)</h2>
 * <pre>
 *  0      1        2                10       14               22         26
 *  +------+--------+----------------+--------+----------------+----------+-------------------+
 *  | 0x43 | version| offsetInShard  | crc32c | writtenAtMillis| headerCrc| chunk bytes ...   |
 *  | 'C'  |   1    |  i64           |  i32   |  i64           |  i32     | (value length-26) |
 *  +------+--------+----------------+--------+----------------+----------+-------------------+
 * </pre>
 * Self-contained, so GET reads one value: {@code crc32c} covers the chunk bytes,
 * {@code headerCrc} (CRC32C of bytes 0..21) covers the header, so no bit of the value can change
 * unnoticed (a flipped offset would otherwise restore good bytes at the wrong place). In a segment
 * it follows a {@link ChunkLog} record header (magic, ShardId, value length, header CRC). Stashes
 * written before the chunk log kept it as a RocksDB value in the default column family instead.
 *
 * <h2>Meta value, version 2 (current, big-endian)</h2>
 * <pre>
 *  0      1        2                10       14               22       26        34         42        46
 *  +------+--------+----------------+--------+----------------+--------+---------+----------+---------+
 *  | 0x4D | version| offsetInShard  | crc32c | writtenAtMillis| length | segment | position | metaCrc |
 *  | 'M'  |   2    |  i64           |  i32   |  i64           |  i32   |  i64    |  i64     |  i32    |
 *  +------+--------+----------------+--------+----------------+--------+---------+----------+---------+
 * </pre>
 * The chunk value's fields plus the chunk length, where its segment record starts
 * ({@link ChunkLocation}), and a CRC32C of bytes 0..41. LIST, PURGE's byte accounting and the
 * occupancy scan at open read only these, never a segment.
 *
 * <h2>Meta value, version 1 (read only)</h2>
 * The first 26 bytes of version 2, then {@code metaCrc} over bytes 0..25 (30 bytes): an entry
 * written before the chunk log, whose chunk value is in the default column family under the same
 * key. Still read (such an entry is served until purged); no longer written, except by tests that
 * build a stash of the old layout.
 *
 * <p>Versions: a reader rejects an unknown magic, or a version outside
 * {@code [MIN_VERSION, VERSION]} for chunk values and {@code [META_MIN_VERSION, META_VERSION]} for
 * metas, as corrupt.
 *
 * <p>Thread-safe: stateless.
 */
public final class EntryFormat {
    public static final byte CHUNK_MAGIC = 0x43;
    public static final byte META_MAGIC = 0x4D;
    /** The chunk value's version. */
    public static final byte VERSION = 1;
    public static final byte MIN_VERSION = 1;
    /** The meta value's version: 2 added the chunk's place in the chunk log. */
    public static final byte META_VERSION = 2;
    public static final byte META_MIN_VERSION = 1;
    /** Bytes before the chunk in a chunk value. */
    public static final int CHUNK_HEADER_BYTES = 26;
    /** Bytes of a version 1 meta value. */
    public static final int META_BYTES = 30;
    /** Bytes of a version 2 meta value. */
    public static final int META_V2_BYTES = 46;
    private static final int FIELDS_END = 22;
    private static final int LOCATION_AT = FIELDS_END + 4;

    private EntryFormat() {
    }

    /**
     * The chunk value of an entry: its header, then {@code chunk}'s readable bytes, not copied (a
     * retained slice), in a new buffer the caller owns. The chunk log writes it with one gathering
     * write, so a chunk goes from the socket's buffer to the page cache without a copy on the heap.
     */
    public static ByteBuf encodeChunkValue(StashEntryInfo info, ByteBuf chunk, ByteBufAllocator allocator) {
        ByteBuf header = allocator.buffer(CHUNK_HEADER_BYTES);
        byte[] fields = new byte[CHUNK_HEADER_BYTES];
        writeHeader(fields, CHUNK_MAGIC, VERSION, info);
        putInt(fields, FIELDS_END, Crc32c.of(fields, 0, FIELDS_END));
        header.writeBytes(fields);
        return allocator.compositeBuffer(2)
                .addComponent(true, header)
                .addComponent(true, chunk.retainedSlice(chunk.readerIndex(), info.length()));
    }

    /** {@link #encodeChunkValue(StashEntryInfo, ByteBuf, ByteBufAllocator)} into an array. */
    public static byte[] encodeChunkValue(StashEntryInfo info, ByteBuf chunk) {
        ByteBuf value = encodeChunkValue(info, chunk, UnpooledByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(value);
        } finally {
            value.release();
        }
    }

    /** A version 1 meta value: the layout before the chunk log, chunk value in the default column family. */
    public static byte[] encodeMetaValue(StashEntryInfo info) {
        byte[] value = new byte[META_BYTES];
        writeHeader(value, META_MAGIC, 1, info);
        putInt(value, FIELDS_END, info.length());
        putInt(value, LOCATION_AT, Crc32c.of(value, 0, LOCATION_AT));
        return value;
    }

    /** The meta value of an entry whose chunk value is at {@code location} in the chunk log. */
    public static byte[] encodeMetaValue(StashEntryInfo info, ChunkLocation location) {
        byte[] value = new byte[META_V2_BYTES];
        writeHeader(value, META_MAGIC, META_VERSION, info);
        putInt(value, FIELDS_END, info.length());
        putLong(value, LOCATION_AT, location.segment());
        putLong(value, LOCATION_AT + 8, location.position());
        putInt(value, LOCATION_AT + 16, Crc32c.of(value, 0, LOCATION_AT + 16));
        return value;
    }

    /**
     * Decodes a chunk value and checks its CRC32C.
     *
     * @throws CorruptEntryException when the value is malformed or its bytes fail their CRC
     */
    public static StashEntryInfo decodeChunkValue(ShardId id, byte[] value) throws CorruptEntryException {
        if (value.length < CHUNK_HEADER_BYTES) {
            throw new CorruptEntryException("decode chunk", id, "value of " + value.length + " bytes is shorter than "
                    + "its " + CHUNK_HEADER_BYTES + "-byte header");
        }
        checkMagicAndVersion(id, value, CHUNK_MAGIC, MIN_VERSION, VERSION, "decode chunk");
        checkCrc(id, value, FIELDS_END, "decode chunk");
        int length = value.length - CHUNK_HEADER_BYTES;
        StashEntryInfo info = readInfo(id, value, length, "decode chunk");
        int actual = Crc32c.of(value, CHUNK_HEADER_BYTES, length);
        if (actual != info.crc32c()) {
            throw new CorruptEntryException("decode chunk", id, "stored bytes have CRC32C " + Crc32c.format(actual)
                    + ", expected " + Crc32c.format(info.crc32c()));
        }
        return info;
    }

    /** @throws CorruptEntryException when the value is malformed */
    public static StashEntryInfo decodeMetaValue(ShardId id, byte[] value) throws CorruptEntryException {
        return decodeIndexEntry(id, value).info();
    }

    /**
     * Decodes a meta value of either version: the entry's info, and where its chunk value is.
     *
     * @throws CorruptEntryException when the value is malformed
     */
    static IndexEntry decodeIndexEntry(ShardId id, byte[] value) throws CorruptEntryException {
        if (value.length < 2) {
            throw new CorruptEntryException("decode meta", id, "meta value is " + value.length + " bytes");
        }
        checkMagicAndVersion(id, value, META_MAGIC, META_MIN_VERSION, META_VERSION, "decode meta");
        int expected = value[1] == 1 ? META_BYTES : META_V2_BYTES;
        if (value.length != expected) {
            throw new CorruptEntryException("decode meta", id, "meta value of version " + value[1] + " is "
                    + value.length + " bytes, expected " + expected);
        }
        checkCrc(id, value, expected - 4, "decode meta");
        int length = getInt(value, FIELDS_END);
        if (length < 0) {
            throw new CorruptEntryException("decode meta", id, "negative length " + length);
        }
        StashEntryInfo info = readInfo(id, value, length, "decode meta");
        if (value[1] == 1) {
            return new IndexEntry(info, null);
        }
        long segment = getLong(value, LOCATION_AT);
        long position = getLong(value, LOCATION_AT + 8);
        if (segment < 0 || position < 0) {
            throw new CorruptEntryException("decode meta", id, "negative chunk location " + segment + "/" + position);
        }
        return new IndexEntry(info, new ChunkLocation(segment, position));
    }

    private static void checkMagicAndVersion(ShardId id, byte[] value, byte magic, int minVersion, int maxVersion,
                                             String operation) throws CorruptEntryException {
        if (value[0] != magic) {
            throw new CorruptEntryException(operation, id, String.format("bad magic 0x%02x, expected 0x%02x",
                    value[0], magic));
        }
        if (value[1] < minVersion || value[1] > maxVersion) {
            throw new CorruptEntryException(operation, id, "unknown format version " + value[1]);
        }
    }

    /** Checks the CRC32C stored at {@code end} against bytes {@code 0..end-1}. */
    private static void checkCrc(ShardId id, byte[] value, int end, String operation) throws CorruptEntryException {
        int stored = getInt(value, end);
        int actual = Crc32c.of(value, 0, end);
        if (stored != actual) {
            throw new CorruptEntryException(operation, id, "header has CRC32C " + Crc32c.format(actual)
                    + ", expected " + Crc32c.format(stored));
        }
    }

    private static StashEntryInfo readInfo(ShardId id, byte[] value, int length, String operation)
            throws CorruptEntryException {
        long offset = getLong(value, 2);
        if (offset < 0) {
            throw new CorruptEntryException(operation, id, "negative offsetInShard " + offset);
        }
        return new StashEntryInfo(id, offset, length, getInt(value, 10), getLong(value, 14));
    }

    private static void writeHeader(byte[] value, byte magic, int version, StashEntryInfo info) {
        value[0] = magic;
        value[1] = (byte) version;
        putLong(value, 2, info.offsetInShard());
        putInt(value, 10, info.crc32c());
        putLong(value, 14, info.writtenAtMillis());
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    static void putLong(byte[] b, int at, long v) {
        putInt(b, at, (int) (v >>> 32));
        putInt(b, at + 4, (int) v);
    }

    static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static long getLong(byte[] b, int at) {
        return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xFFFFFFFFL);
    }
}
