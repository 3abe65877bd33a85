/**
 * Reed–Solomon erasure coding over GF(2^8): k data chunks make m parity chunks, and any k of the
 * k + m chunks give back the others. The format (matrix, field, chunk layout, padding) is defined
 * in {@code docs/ERASURE_FORMAT.md} and pinned by golden vectors; every engine must reproduce it
 * byte for byte.
 *
 * <p>Start with {@link io.shardvault.common.erasure.ErasureCodecs#create}, which picks the native
 * Jerasure engine or the pure-Java one from an {@link io.shardvault.common.erasure.ErasureConfig},
 * then ask it for the {@link io.shardvault.common.erasure.ErasureCodec} of a
 * {@link io.shardvault.common.erasure.ErasureLayout}. Chunks are direct buffers aligned on 16 bytes:
 * allocate them with {@link io.shardvault.common.erasure.AlignedBuffers}, and cut stripes into chunks
 * with {@link io.shardvault.common.erasure.ErasureStripes}.
 */
package io.shardvault.common.erasure;
