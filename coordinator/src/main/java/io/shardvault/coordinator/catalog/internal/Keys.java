package io.shardvault.coordinator.catalog.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Builds and parses the catalog's RocksDB keys; see {@link Table} for the layouts. */
final class Keys {
    private Keys() {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The version id of a sequence number: 16 hex digits of {@code MAX - seq}, so ids sort newest first. */
    static String versionId(long seq) {
        return String.format("%016x", Long.MAX_VALUE - seq);
    }

    /** The sequence number of a version id, or -1 when it is not one of ours. */
    static long seqOf(String versionId) {
        if (versionId.length() != 16) {
            return -1;
        }
        try {
            long inv = Long.parseUnsignedLong(versionId, 16);
            return inv < 0 ? -1 : Long.MAX_VALUE - inv;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Upload ids sort in creation order. */
    static String uploadId(long seq) {
        return String.format("%016x", seq);
    }

    static long uploadSeqOf(String uploadId) {
        if (uploadId.length() != 16) {
            return -1;
        }
        try {
            long v = Long.parseUnsignedLong(uploadId, 16);
            return v < 0 ? -1 : v;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static byte[] bucketPrefix(int bucketId) {
        return new Wire.Writer(4).i32(bucketId).toByteArray();
    }

    /** u32 bucketId | key bytes: the prefix of every entry under a key prefix. */
    static byte[] keyPrefix(int bucketId, byte[] keyBytes) {
        return new Wire.Writer(4 + keyBytes.length).i32(bucketId).raw(keyBytes).toByteArray();
    }

    /** u32 bucketId | key | 0x00: the prefix of one key's versions or uploads. */
    static byte[] itemPrefix(int bucketId, byte[] keyBytes) {
        return new Wire.Writer(5 + keyBytes.length).i32(bucketId).raw(keyBytes).u8(0).toByteArray();
    }

    /** The first position after every entry of {@code key}: u32 bucketId | key | 0x01. */
    static byte[] afterKey(int bucketId, byte[] keyBytes) {
        return new Wire.Writer(5 + keyBytes.length).i32(bucketId).raw(keyBytes).u8(1).toByteArray();
    }

    static byte[] versionKey(int bucketId, byte[] keyBytes, long seq) {
        return new Wire.Writer(13 + keyBytes.length).i32(bucketId).raw(keyBytes).u8(0).i64(Long.MAX_VALUE - seq)
                .toByteArray();
    }

    static byte[] uploadKey(int bucketId, byte[] keyBytes, long uploadSeq) {
        return new Wire.Writer(13 + keyBytes.length).i32(bucketId).raw(keyBytes).u8(0).i64(uploadSeq).toByteArray();
    }

    /** The object key inside a versions or uploads key. */
    static byte[] objectKeyOf(byte[] dbKey) {
        return Arrays.copyOfRange(dbKey, 4, dbKey.length - 9);
    }

    static long versionSeqOf(byte[] dbKey) {
        return Long.MAX_VALUE - new Wire.Reader(dbKey, dbKey.length - 8, 8).i64();
    }

    static long uploadSeqOfKey(byte[] dbKey) {
        return new Wire.Reader(dbKey, dbKey.length - 8, 8).i64();
    }

    static byte[] partKey(long uploadSeq, int partNumber) {
        return new Wire.Writer(10).i64(uploadSeq).u16(partNumber).toByteArray();
    }

    static byte[] fileKey(int vaultId, long fileId) {
        return new Wire.Writer(12).i32(vaultId).i64(fileId).toByteArray();
    }

    static byte[] podKey(int vaultId, int shardIndex) {
        return new Wire.Writer(5).i32(vaultId).u8(shardIndex).toByteArray();
    }

    /** The smallest byte string greater than every string starting with {@code prefix}. */
    static byte[] successor(byte[] prefix) {
        byte[] s = prefix.clone();
        for (int i = s.length - 1; i >= 0; i--) {
            if (s[i] != (byte) 0xff) {
                s[i]++;
                return Arrays.copyOf(s, i + 1);
            }
        }
        throw new IllegalArgumentException("no successor of an all-0xff prefix");
    }

    static boolean startsWith(byte[] a, byte[] prefix) {
        return a.length >= prefix.length && Arrays.equals(a, 0, prefix.length, prefix, 0, prefix.length);
    }

    static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }
}
