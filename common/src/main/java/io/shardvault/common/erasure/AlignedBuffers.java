package io.shardvault.common.erasure;

import java.nio.ByteBuffer;

/**
 * Allocates direct buffers whose first byte sits on a 64-byte boundary (a cache line; more than the
 * 16 bytes {@link ErasureCodec} requires). Each buffer over-allocates by 64 bytes and is a slice of
 * that allocation, freed with it by the garbage collector.
 *
 * <p>Stateless and thread-safe.
 */
public final class AlignedBuffers {

    /** Alignment of every buffer (and of each chunk from {@link #allocateChunks}). */
    public static final int ALIGNMENT = 64;

    private AlignedBuffers() {
    }

    /** A zeroed direct buffer of {@code capacity} bytes starting on a 64-byte boundary. */
    public static ByteBuffer allocate(int capacity) {
        if (capacity < 0 || capacity > Integer.MAX_VALUE - ALIGNMENT) {
            throw new IllegalArgumentException("capacity outside [0, 2^31 - 65]: " + capacity);
        }
        ByteBuffer raw = ByteBuffer.allocateDirect(capacity + ALIGNMENT);
        int misalignment = raw.alignmentOffset(0, ALIGNMENT);
        int skip = misalignment == 0 ? 0 : ALIGNMENT - misalignment;
        return raw.slice(skip, capacity);
    }

    /**
     * {@code count} zeroed chunks of {@code chunkLength} bytes each, every one starting on a 64-byte
     * boundary, carved from one allocation.
     */
    public static ByteBuffer[] allocateChunks(int count, int chunkLength) {
        if (count < 0 || chunkLength < 0) {
            throw new IllegalArgumentException("count and chunkLength must be >= 0: " + count + ", " + chunkLength);
        }
        long stride = ((long) chunkLength + ALIGNMENT - 1) & -ALIGNMENT;
        if (stride * count > Integer.MAX_VALUE - ALIGNMENT) {
            throw new IllegalArgumentException(count + " chunks of " + chunkLength + " bytes exceed 2 GiB");
        }
        ByteBuffer block = allocate((int) (stride * count));
        ByteBuffer[] chunks = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
            chunks[i] = block.slice((int) (i * stride), chunkLength);
        }
        return chunks;
    }
}
