package io.shardvault.common.erasure;

import java.nio.ByteBuffer;

/**
 * Reed–Solomon coding of one {@link ErasureLayout}: {@code encode} makes the m parity chunks of a
 * stripe from its k data chunks, {@code decode} rebuilds any missing chunks, data or parity, from
 * any k survivors. Every engine produces the same bytes (the format is in
 * {@code docs/ERASURE_FORMAT.md}, pinned by golden vectors).
 *
 * <h2>Buffers</h2>
 * A chunk is the {@code chunkLength} bytes of a caller-owned buffer starting at its
 * {@code position()}; the codec reads and writes only those bytes and changes no position, limit or
 * mark. Every chunk buffer must be
 * <ul>
 *   <li>direct (the native engine hands its address to C; nothing is copied),</li>
 *   <li>aligned: the address of its {@code position()} a multiple of 16 (gf-complete's SIMD code
 *       aborts the process on unlike alignment; both engines reject it up front, so code tested
 *       with either engine runs on the other). {@link AlignedBuffers} allocates such buffers;
 *       {@link ErasureStripes#chunkLength} keeps chunk lengths multiples of 16 so chunks cut
 *       back to back from one aligned block stay aligned,</li>
 *   <li>at least {@code chunkLength} bytes from position to limit, and</li>
 *   <li>not overlapping any other chunk of the same call.</li>
 * </ul>
 * Any chunk length {@code >= 0} is accepted; 0 does nothing. A call that breaks these rules throws
 * {@link IllegalArgumentException} before it writes anything.
 *
 * <p>Thread-safety: implementations are thread-safe; concurrent calls on disjoint buffers need no
 * locking. A codec stays usable after any exception. Matrices are computed once per layout, and
 * decode matrices once per erasure pattern (kept in a bounded cache).
 */
public interface ErasureCodec {

    /** The layout this codec codes. */
    ErasureLayout layout();

    /** The engine's name for logs and metrics: {@code "jerasure4j"} or {@code "java"}. */
    String engine();

    /**
     * Computes the parity chunks of one stripe.
     *
     * @param data        the k data chunks (read)
     * @param parity      the m parity chunks (overwritten)
     * @param chunkLength bytes per chunk, {@code >= 0}
     * @throws IllegalArgumentException if the arrays do not hold k and m buffers or a buffer breaks
     *                                  the rules above
     */
    void encode(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength);

    /**
     * Rebuilds the missing chunks of one stripe.
     *
     * <p>{@code chunks[i]} with {@code present[i]} true is a survivor; the first k survivors (by
     * index) are read, any others are not touched. Each missing chunk ({@code present[i]} false)
     * with a non-null buffer is overwritten with its rebuilt bytes; a missing chunk whose buffer is
     * null is skipped (a reader that wants only data leaves the parity slots null).
     *
     * @param chunks      k + m entries, data chunks first
     * @param present     k + m flags: which chunks hold valid bytes
     * @param chunkLength bytes per chunk, {@code >= 0}
     * @throws IllegalArgumentException if fewer than k chunks are present, a present chunk is null,
     *                                  the arrays are not k + m long, or a buffer breaks the rules
     */
    void decode(ByteBuffer[] chunks, boolean[] present, int chunkLength);
}
