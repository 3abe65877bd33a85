package io.shardvault.s3.internal.checksum;

/**
 * CRC-64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, init and xor-out all ones; check value of
 * "123456789" is 0xAE8B14860A799888), as S3's {@code x-amz-checksum-crc64nvme} uses it. Computed
 * eight bytes at a time with slicing tables. Not thread-safe.
 */
public final class Crc64Nvme {
    static final long POLY = 0x9A6C9329AC4BC9B5L;
    private static final long[][] TABLES = new long[8][256];

    static {
        for (int n = 0; n < 256; n++) {
            long crc = n;
            for (int k = 0; k < 8; k++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY : crc >>> 1;
            }
            TABLES[0][n] = crc;
        }
        for (int n = 0; n < 256; n++) {
            long crc = TABLES[0][n];
            for (int t = 1; t < 8; t++) {
                crc = TABLES[0][(int) (crc & 0xff)] ^ (crc >>> 8);
                TABLES[t][n] = crc;
            }
        }
    }

    private long crc = -1L;

    public void update(byte[] b, int off, int len) {
        long c = crc;
        int i = off;
        int end = off + len;
        while (end - i >= 8) {
            c ^= (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                    | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48
                    | (b[i + 7] & 0xffL) << 56;
            c = TABLES[7][(int) (c & 0xff)] ^ TABLES[6][(int) ((c >>> 8) & 0xff)]
                    ^ TABLES[5][(int) ((c >>> 16) & 0xff)] ^ TABLES[4][(int) ((c >>> 24) & 0xff)]
                    ^ TABLES[3][(int) ((c >>> 32) & 0xff)] ^ TABLES[2][(int) ((c >>> 40) & 0xff)]
                    ^ TABLES[1][(int) ((c >>> 48) & 0xff)] ^ TABLES[0][(int) (c >>> 56)];
            i += 8;
        }
        while (i < end) {
            c = TABLES[0][(int) ((c ^ b[i]) & 0xff)] ^ (c >>> 8);
            i++;
        }
        crc = c;
    }

    public long value() {
        return ~crc;
    }
}
