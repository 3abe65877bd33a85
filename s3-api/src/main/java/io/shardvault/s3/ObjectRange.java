package io.shardvault.s3;

/**
 * A byte range of an object version: {@code length} bytes from {@code offset}.
 *
 * @param offset the first byte, 0-based
 * @param length the byte count
 */
public record ObjectRange(long offset, long length) {
    public ObjectRange {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("bad range: offset " + offset + ", length " + length);
        }
    }
}
