package io.shardvault.s3.internal.checksum;

import io.shardvault.s3.ChecksumAlgorithm;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/** Factories for incremental digests of each S3 checksum algorithm, and CRC combination. */
public final class ChecksumFunctions {
    private ChecksumFunctions() {
    }

    /** An incremental digest. Not thread-safe; finish once. */
    public interface Digest {
        void update(byte[] b, int off, int len);

        /** The digest's big-endian bytes, as S3 base64-encodes them. */
        byte[] finish();

        /** For CRCs: the value as an unsigned long. */
        default long finishAsLong() {
            return toLong(finish());
        }
    }

    public static Digest create(ChecksumAlgorithm algorithm) {
        switch (algorithm) {
            case CRC32:
                return new JdkCrc(new CRC32());
            case CRC32C:
                return new JdkCrc(new CRC32C());
            case CRC64NVME:
                return new Crc64Digest();
            case SHA1:
                return new MdDigest("SHA-1");
            case SHA256:
                return new MdDigest("SHA-256");
            default:
                throw new IllegalArgumentException("unknown algorithm " + algorithm);
        }
    }

    /** An MD5 digest (the ETag). */
    public static Digest md5() {
        return new MdDigest("MD5");
    }

    /** Big-endian bytes (4 or 8) to an unsigned value. */
    public static long toLong(byte[] bytes) {
        long v = 0;
        for (byte b : bytes) {
            v = (v << 8) | (b & 0xff);
        }
        return v;
    }

    /** A CRC value to its big-endian bytes: 8 for CRC64NVME, 4 otherwise. */
    public static byte[] toBytes(ChecksumAlgorithm algorithm, long crc) {
        int n = algorithm == ChecksumAlgorithm.CRC64NVME ? 8 : 4;
        byte[] out = new byte[n];
        for (int i = n - 1; i >= 0; i--) {
            out[i] = (byte) crc;
            crc >>>= 8;
        }
        return out;
    }

    /**
     * The CRC of A followed by B, from crc(A), crc(B) and len(B) (zlib's crc32_combine, generalised
     * to any reflected CRC with all-ones init and xor-out).
     */
    public static long combine(ChecksumAlgorithm algorithm, long crcA, long crcB, long lenB) {
        long poly;
        int width;
        switch (algorithm) {
            case CRC32:
                poly = 0xEDB88320L;
                width = 32;
                break;
            case CRC32C:
                poly = 0x82F63B78L;
                width = 32;
                break;
            case CRC64NVME:
                poly = Crc64Nvme.POLY;
                width = 64;
                break;
            default:
                throw new IllegalArgumentException(algorithm + " is not a CRC");
        }
        if (lenB <= 0) {
            return crcA ^ crcB;
        }
        long[] even = new long[width];
        long[] odd = new long[width];
        odd[0] = poly;
        long row = 1;
        for (int n = 1; n < width; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd);
        square(odd, even);
        long crc = crcA;
        long len = lenB;
        do {
            square(even, odd);
            if ((len & 1) != 0) {
                crc = times(even, crc);
            }
            len >>>= 1;
            if (len == 0) {
                break;
            }
            square(odd, even);
            if ((len & 1) != 0) {
                crc = times(odd, crc);
            }
            len >>>= 1;
        } while (len != 0);
        return crc ^ crcB;
    }

    private static long times(long[] mat, long vec) {
        long sum = 0;
        int i = 0;
        while (vec != 0) {
            if ((vec & 1) != 0) {
                sum ^= mat[i];
            }
            vec >>>= 1;
            i++;
        }
        return sum;
    }

    private static void square(long[] square, long[] mat) {
        for (int n = 0; n < mat.length; n++) {
            square[n] = times(mat, mat[n]);
        }
    }

    private static final class JdkCrc implements Digest {
        private final java.util.zip.Checksum crc;

        JdkCrc(java.util.zip.Checksum crc) {
            this.crc = crc;
        }

        @Override
        public void update(byte[] b, int off, int len) {
            crc.update(b, off, len);
        }

        @Override
        public byte[] finish() {
            return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
        }
    }

    private static final class Crc64Digest implements Digest {
        private final Crc64Nvme crc = new Crc64Nvme();

        @Override
        public void update(byte[] b, int off, int len) {
            crc.update(b, off, len);
        }

        @Override
        public byte[] finish() {
            return ByteBuffer.allocate(8).putLong(crc.value()).array();
        }
    }

    private static final class MdDigest implements Digest {
        private final MessageDigest md;

        MdDigest(String name) {
            try {
                md = MessageDigest.getInstance(name);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK lacks " + name, e);
            }
        }

        @Override
        public void update(byte[] b, int off, int len) {
            md.update(b, off, len);
        }

        @Override
        public byte[] finish() {
            return md.digest();
        }
    }
}
