package io.shardvault.coordinator.data;

import io.shardvault.common.erasure.ErasureLayout;
import io.shardvault.common.erasure.ErasureStripes;

import java.util.Objects;

/**
 * How a vault cuts files: stripes of {@code k × chunkBytes} bytes, each Reed–Solomon coded into
 * {@code n = k + m} chunks, chunk i of every stripe appended to shard i.
 *
 * <p>Stripe s of a file of {@code size} bytes holds file bytes {@code [s × stripeBytes, ...)}, at
 * most {@link #stripeBytes()} of them. Its chunk length follows the erasure format
 * ({@link ErasureStripes#chunkLength}): full stripes have chunks of exactly {@code chunkBytes}
 * (a multiple of 16, so the rule is the identity), the last stripe's chunks may be shorter, and
 * bytes past the file's end are zero padding that reads trim using the recorded size. Chunk s of a
 * shard starts at shard offset {@code s × chunkBytes}. A file of 0 bytes has no stripes and no
 * shards.
 *
 * <p>Immutable and thread-safe.
 *
 * @param erasure    k and m
 * @param chunkBytes bytes per chunk of a full stripe; a positive multiple of 16
 */
public record VaultLayout(ErasureLayout erasure, int chunkBytes) {

    public VaultLayout {
        Objects.requireNonNull(erasure, "erasure");
        if (chunkBytes < ErasureStripes.CHUNK_ALIGNMENT || chunkBytes % ErasureStripes.CHUNK_ALIGNMENT != 0) {
            throw new IllegalArgumentException("chunkBytes must be a positive multiple of "
                    + ErasureStripes.CHUNK_ALIGNMENT + ": " + chunkBytes);
        }
        if ((long) erasure.k() * chunkBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a stripe of " + erasure.k() + " x " + chunkBytes
                    + " bytes does not fit in an int");
        }
    }

    public int k() {
        return erasure.k();
    }

    public int m() {
        return erasure.m();
    }

    public int n() {
        return erasure.n();
    }

    /** Bytes of a full stripe: {@code k × chunkBytes}. */
    public int stripeBytes() {
        return erasure.k() * chunkBytes;
    }

    /** Stripes of a file of {@code size} bytes; 0 for an empty file. */
    public long stripeCount(long size) {
        requireSize(size);
        return (size + stripeBytes() - 1) / stripeBytes();
    }

    /** File bytes in stripe {@code stripe} of a file of {@code size} bytes. */
    public int stripeLength(long size, long stripe) {
        long count = stripeCount(size);
        if (stripe < 0 || stripe >= count) {
            throw new IllegalArgumentException("stripe " + stripe + " outside [0, " + count + ") for size " + size);
        }
        return (int) Math.min(stripeBytes(), size - stripe * stripeBytes());
    }

    /** The chunk length of stripe {@code stripe}: {@code chunkBytes} for a full stripe. */
    public int chunkLength(long size, long stripe) {
        return ErasureStripes.chunkLength(stripeLength(size, stripe), erasure.k());
    }

    /** Where chunk {@code stripe} starts in each shard. */
    public long shardOffset(long stripe) {
        return stripe * chunkBytes;
    }

    /** Bytes of each shard of a file of {@code size} bytes. */
    public long shardLength(long size) {
        long stripes = stripeCount(size);
        return stripes == 0 ? 0 : shardOffset(stripes - 1) + chunkLength(size, stripes - 1);
    }

    private static void requireSize(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
    }

    @Override
    public String toString() {
        return erasure + "/" + chunkBytes;
    }
}
