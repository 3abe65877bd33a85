package io.shardvault.common;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The key of one shard everywhere: on pods, in the stash and in every RPC.
 *
 * <h2>Binary encoding ({@value #ENCODED_LENGTH} bytes, big-endian)</h2>
 * <pre>
 *  0         4      5                      13
 *  +---------+------+----------------------+
 *  | vaultId | shard| fileId               |
 *  |  u32    |  u8  |  u64                 |
 *  +---------+------+----------------------+
 * </pre>
 * The field order is not the record's order on purpose: comparing encodings as unsigned bytes
 * (RocksDB's default comparator) sorts by {@code (vaultId, shardIndex, fileId)}, so every shard
 * that one pod slot holds is one contiguous key range whose prefix is {@link #slotPrefix}. All
 * three fields are non-negative, which is what makes big-endian order equal numeric order. The
 * encoding is persisted (stash keys, pod files), so it never changes.
 *
 * @param vaultId the vault the file lives in, {@code >= 0}
 * @param fileId the file, unique within its vault and never reused, {@code >= 0}
 * @param shardIndex which shard of the file, {@code 0..255}; pod {@code i} holds shard {@code i}
 */
public record ShardId(int vaultId, long fileId, int shardIndex) {

    /** Length of {@link #encode()}'s output. */
    public static final int ENCODED_LENGTH = 13;
    /** Length of {@link #slotPrefix(int, int)}'s output. */
    public static final int SLOT_PREFIX_LENGTH = 5;
    /** Shards per file are limited by GF(2^8): at most 256. */
    public static final int MAX_SHARD_INDEX = 255;

    /** The order of the encoded keys: vault, then shard index, then file. */
    public static final Comparator<ShardId> KEY_ORDER = Comparator.comparingInt(ShardId::vaultId)
            .thenComparingInt(ShardId::shardIndex)
            .thenComparingLong(ShardId::fileId);

    public ShardId {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        if (fileId < 0) {
            throw new IllegalArgumentException("fileId must be >= 0: " + fileId);
        }
        checkShardIndex(shardIndex);
    }

    // equals and hashCode written out: pods and stash servers run C1 code only, which calls a record's
    // generated ones through method-handle chains (seen in their profiles), and shard ids are map keys on every write.
    @Override
    public boolean equals(Object o) {
        return o instanceof ShardId s && s.vaultId == vaultId && s.fileId == fileId && s.shardIndex == shardIndex;
    }

    @Override
    public int hashCode() {
        return (31 * vaultId + Long.hashCode(fileId)) * 31 + shardIndex;
    }

    /** Returns the {@value #ENCODED_LENGTH}-byte key. */
    public byte[] encode() {
        byte[] out = new byte[ENCODED_LENGTH];
        putInt(out, 0, vaultId);
        out[4] = (byte) shardIndex;
        putLong(out, 5, fileId);
        return out;
    }

    /** Writes the {@value #ENCODED_LENGTH}-byte key at the buffer's writer index. */
    public void writeTo(ByteBuf out) {
        out.writeInt(vaultId);
        out.writeByte(shardIndex);
        out.writeLong(fileId);
    }

    /** Reads a key written by {@link #writeTo}, advancing the reader index. */
    public static ShardId readFrom(ByteBuf in) {
        if (in.readableBytes() < ENCODED_LENGTH) {
            throw new IllegalArgumentException("a ShardId needs " + ENCODED_LENGTH + " bytes, "
                    + in.readableBytes() + " readable");
        }
        int vault = in.readInt();
        int shard = in.readUnsignedByte();
        long file = in.readLong();
        return new ShardId(vault, file, shard);
    }

    /** Decodes a key produced by {@link #encode()}. */
    public static ShardId decode(byte[] key) {
        if (key.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("a ShardId key is " + ENCODED_LENGTH + " bytes, got "
                    + key.length + ": " + Arrays.toString(key));
        }
        return new ShardId(getInt(key, 0), getLong(key, 5), key[4] & 0xFF);
    }

    /** The key prefix shared by every shard of one pod slot {@code (vaultId, shardIndex)}. */
    public static byte[] slotPrefix(int vaultId, int shardIndex) {
        if (vaultId < 0) {
            throw new IllegalArgumentException("vaultId must be >= 0: " + vaultId);
        }
        checkShardIndex(shardIndex);
        byte[] out = new byte[SLOT_PREFIX_LENGTH];
        putInt(out, 0, vaultId);
        out[4] = (byte) shardIndex;
        return out;
    }

    @Override
    public String toString() {
        return vaultId + "/" + fileId + "/" + shardIndex;
    }

    private static void checkShardIndex(int shardIndex) {
        if (shardIndex < 0 || shardIndex > MAX_SHARD_INDEX) {
            throw new IllegalArgumentException("shardIndex must be in 0.." + MAX_SHARD_INDEX + ": " + shardIndex);
        }
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
