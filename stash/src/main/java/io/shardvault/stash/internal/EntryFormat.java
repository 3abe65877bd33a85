package io.shardvault.stash.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.stash.api.StashEntryInfo;

/**
 * The on-disk values of the stash. Each entry is two RocksDB values under the same key
 * ({@link ShardId#encode()}), written in one atomic, synced WriteBatch:
 *
 * <h2>Chunk value, column family {@code default} (version 1, big-endian)</h2>
 * <pre>
 *  0      1        2                10       14               22         26
 *  +------+--------+----------------+--------+----------------+----------+-------------------+
 *  | 0x43 | version| offsetInShard  | crc32c | writtenAtMillis| headerCrc| chunk bytes ...   |
 *  | 'C'  |   1    |  i64           |  i32   |  i64           |  i32     | (value length-26) |
 *  +------+--------+----------------+--------+----------------+----------+-------------------+
 * </pre>
 * Self-contained, so GET reads one value: {@code crc32c} covers the chunk bytes,
 * {@code headerCrc} (CRC32C of bytes 0..21) covers the header, so no bit of the value can change
 * unnoticed (a flipped offset would otherwise restore good bytes at the wrong place). These
 * values are large and go to blob files (integrated BlobDB), so compactions move only their small
 * index entries.
 *
 * <h2>Meta value, column family {@code meta} (version 1, big-endian)</h2>
 * <pre>
 *  0      1        2                10       14               22       26         30
 *  +------+--------+----------------+--------+----------------+--------+----------+
 *  | 0x4D | version| offsetInShard  | crc32c | writtenAtMillis| length | metaCrc  |
 *  | 'M'  |   1    |  i64           |  i32   |  i64           |  i32   |  i32     |
 *  +------+--------+----------------+--------+----------------+--------+----------+
 * </pre>
 * The same fields plus the chunk length, and a CRC32C of bytes 0..25; small enough to stay in SST
 * blocks. LIST, PURGE's byte accounting and the occupancy scan at open read only these, never a
 * blob.
 *
 * <p>Versions: 1 (current, and the minimum readable) is the first. A reader rejects an unknown
 * magic or a version outside {@code [MIN_VERSION, VERSION]} as corrupt.
 *
 * <p>Thread-safe: stateless.
 */
public final class EntryFormat {
    public static final byte CHUNK_MAGIC = 0x43;
    public static final byte META_MAGIC = 0x4D;
    public static final byte VERSION = 1;
    public static final byte MIN_VERSION = 1;
    /** Bytes before the chunk in a chunk value. */
    public static final int CHUNK_HEADER_BYTES = 26;
    /** Bytes of a meta value. */
    public static final int META_BYTES = 30;
    private static final int FIELDS_END = 22;

    private EntryFormat() {
    }

    /**
     * The chunk value of an entry, header then a copy of {@code chunk}'s readable bytes, in a new
     * buffer from {@code allocator} that the caller owns. The stash writes it from a direct buffer:
     * RocksDB then copies it once into its write batch, where a {@code byte[]} costs a JNI copy more.
     */
    public static ByteBuf encodeChunkValue(StashEntryInfo info, ByteBuf chunk, ByteBufAllocator allocator) {
        byte[] header = new byte[CHUNK_HEADER_BYTES];
        writeHeader(header, CHUNK_MAGIC, info);
        putInt(header, FIELDS_END, Crc32c.of(header, 0, FIELDS_END));
        ByteBuf value = allocator.directBuffer(CHUNK_HEADER_BYTES + info.length());
        value.writeBytes(header);
        value.writeBytes(chunk, chunk.readerIndex(), info.length());
        return value;
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

    public static byte[] encodeMetaValue(StashEntryInfo info) {
        byte[] value = new byte[META_BYTES];
        writeHeader(value, META_MAGIC, info);
        putInt(value, FIELDS_END, info.length());
        putInt(value, FIELDS_END + 4, Crc32c.of(value, 0, FIELDS_END + 4));
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
        checkMagicAndVersion(id, value, CHUNK_MAGIC, "decode chunk");
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
        if (value.length != META_BYTES) {
            throw new CorruptEntryException("decode meta", id, "meta value is " + value.length + " bytes, expected "
                    + META_BYTES);
        }
        checkMagicAndVersion(id, value, META_MAGIC, "decode meta");
        checkCrc(id, value, FIELDS_END + 4, "decode meta");
        int length = getInt(value, FIELDS_END);
        if (length < 0) {
            throw new CorruptEntryException("decode meta", id, "negative length " + length);
        }
        return readInfo(id, value, length, "decode meta");
    }

    private static void checkMagicAndVersion(ShardId id, byte[] value, byte magic, String operation)
            throws CorruptEntryException {
        if (value[0] != magic) {
            throw new CorruptEntryException(operation, id, String.format("bad magic 0x%02x, expected 0x%02x",
                    value[0], magic));
        }
        if (value[1] < MIN_VERSION || value[1] > VERSION) {
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

    private static void writeHeader(byte[] value, byte magic, StashEntryInfo info) {
        value[0] = magic;
        value[1] = VERSION;
        putLong(value, 2, info.offsetInShard());
        putInt(value, 10, info.crc32c());
        putLong(value, 14, info.writtenAtMillis());
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static void putLong(byte[] b, int at, long v) {
        putInt(b, at, (int) (v >>> 32));
        putInt(b, at + 4, (int) v);
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    private static long getLong(byte[] b, int at) {
        return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xFFFFFFFFL);
    }
}
