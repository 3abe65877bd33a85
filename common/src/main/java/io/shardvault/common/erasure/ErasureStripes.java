package io.shardvault.common.erasure;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * How a stripe is cut into k data chunks; a forever format (see {@code docs/ERASURE_FORMAT.md}).
 *
 * <p>A stripe of S bytes becomes k data chunks of L = {@link #chunkLength(long, int) chunkLength(S, k)}
 * bytes each: chunk j holds stripe bytes {@code [j*L, min((j+1)*L, S))}, and every byte after the
 * stripe's end is zero (so the last chunks may be partly or wholly padding). L is
 * {@code ceil(S / k)} rounded up to a multiple of 16: chunks laid out back to back in one aligned
 * block stay 16-byte aligned, as the native engine needs.
 *
 * <p>Stateless and thread-safe.
 */
public final class ErasureStripes {

    /**
     * The erasure format this code implements (matrix, field, chunk layout, padding), as stored files
     * should record it; see docs/ERASURE_FORMAT.md. A new format gets a new name and version.
     */
    public static final String FORMAT_NAME = "rs-vandermonde-gf8-v1";
    /** The version number of {@link #FORMAT_NAME}. */
    public static final int FORMAT_VERSION = 1;

    /** Chunk lengths are multiples of this; it is part of the format. */
    public static final int CHUNK_ALIGNMENT = 16;

    private ErasureStripes() {
    }

    /**
     * The chunk length of a stripe: {@code ceil(stripeBytes / k)} rounded up to a multiple of 16;
     * 0 for an empty stripe.
     *
     * @throws IllegalArgumentException if {@code stripeBytes < 0}, {@code k < 1}, or the chunk
     *                                  would not fit in an int
     */
    public static int chunkLength(long stripeBytes, int k) {
        if (stripeBytes < 0) {
            throw new IllegalArgumentException("stripeBytes must be >= 0: " + stripeBytes);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1: " + k);
        }
        long perChunk = (stripeBytes + k - 1) / k;
        long aligned = (perChunk + CHUNK_ALIGNMENT - 1) & -CHUNK_ALIGNMENT;
        if (aligned > Integer.MAX_VALUE - CHUNK_ALIGNMENT) {
            throw new IllegalArgumentException("stripe of " + stripeBytes + " bytes over k=" + k
                    + " makes chunks longer than an int");
        }
        return (int) aligned;
    }

    /**
     * Views k chunks laid back to back in {@code block} (from its position): no copy. The block
     * must hold {@code k * chunkLength} bytes with the stripe first and zeros after it.
     */
    public static ByteBuffer[] slices(ByteBuffer block, int k, int chunkLength) {
        Objects.requireNonNull(block, "block");
        checkLengths(k, chunkLength);
        if ((long) k * chunkLength > block.remaining()) {
            throw new IllegalArgumentException("block has " + block.remaining() + " bytes, needs k * chunkLength = "
                    + (long) k * chunkLength);
        }
        ByteBuffer[] chunks = new ByteBuffer[k];
        for (int j = 0; j < k; j++) {
            chunks[j] = block.slice(block.position() + j * chunkLength, chunkLength);
        }
        return chunks;
    }

    /**
     * Copies the stripe (the bytes from {@code stripe}'s position to its limit) into the data chunks
     * and zero-fills the padding. Positions are left unchanged.
     */
    public static void split(ByteBuffer stripe, ByteBuffer[] dataChunks, int chunkLength) {
        Objects.requireNonNull(stripe, "stripe");
        Objects.requireNonNull(dataChunks, "dataChunks");
        int k = dataChunks.length;
        checkLengths(k, chunkLength);
        long stripeBytes = stripe.remaining();
        if (stripeBytes > (long) k * chunkLength) {
            throw new IllegalArgumentException("stripe of " + stripeBytes + " bytes does not fit in " + k
                    + " chunks of " + chunkLength);
        }
        for (int j = 0; j < k; j++) {
            ByteBuffer chunk = Objects.requireNonNull(dataChunks[j], "dataChunks[" + j + "]");
            requireRoom(chunk, chunkLength, j);
            long from = (long) j * chunkLength;
            int copy = (int) Math.max(0, Math.min(chunkLength, stripeBytes - from));
            if (copy > 0) {
                chunk.put(chunk.position(), stripe, stripe.position() + (int) from, copy);
            }
            for (int i = chunk.position() + copy, end = chunk.position() + chunkLength; i < end; i++) {
                chunk.put(i, (byte) 0);
            }
        }
    }

    /**
     * Copies the first {@code stripeBytes} bytes of the data chunks into {@code out} at its position,
     * advancing it: the reverse of {@link #split}.
     */
    public static void join(ByteBuffer[] dataChunks, int chunkLength, long stripeBytes, ByteBuffer out) {
        Objects.requireNonNull(dataChunks, "dataChunks");
        Objects.requireNonNull(out, "out");
        int k = dataChunks.length;
        checkLengths(k, chunkLength);
        if (stripeBytes < 0 || stripeBytes > (long) k * chunkLength || stripeBytes > out.remaining()) {
            throw new IllegalArgumentException("stripeBytes " + stripeBytes + " outside [0, min(k * chunkLength, "
                    + "out.remaining()=" + out.remaining() + ")]");
        }
        for (int j = 0; j < k && (long) j * chunkLength < stripeBytes; j++) {
            ByteBuffer chunk = Objects.requireNonNull(dataChunks[j], "dataChunks[" + j + "]");
            requireRoom(chunk, chunkLength, j);
            int copy = (int) Math.min(chunkLength, stripeBytes - (long) j * chunkLength);
            out.put(out.position(), chunk, chunk.position(), copy);
            out.position(out.position() + copy);
        }
    }

    private static void checkLengths(int k, int chunkLength) {
        if (k < 1) {
            throw new IllegalArgumentException("need at least one data chunk: k=" + k);
        }
        if (chunkLength < 0) {
            throw new IllegalArgumentException("chunkLength must be >= 0: " + chunkLength);
        }
    }

    private static void requireRoom(ByteBuffer chunk, int chunkLength, int index) {
        if (chunk.remaining() < chunkLength) {
            throw new IllegalArgumentException("chunk " + index + " has " + chunk.remaining()
                    + " bytes remaining, needs " + chunkLength);
        }
    }
}
