package io.shardvault.coordinator.data.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.shardvault.common.erasure.AlignedBuffers;

import java.nio.ByteBuffer;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reused stripe buffers: 64-byte aligned direct memory ({@link AlignedBuffers}) for encoding a
 * stripe and for decoding a degraded one, handed out as reference-counted {@link ByteBuf}s.
 * {@code ByteBuffer.allocateDirect} zeroes every byte and registers a cleaner; per 1 MiB PUT that
 * cost about 0.4 ms of CPU (issue #18) for memory the stripe overwrites anyway.
 *
 * <p><b>When memory comes back.</b> A buffer returns to the pool when its reference count reaches
 * zero: its owner released it <em>and</em> so did every holder of a retained slice. Give each RPC
 * a {@link ByteBuf#retainedSlice retained slice}: Netty releases a frame's buffers only once their
 * bytes went to the socket or the write failed, so memory an RPC may still read is never handed
 * out again, even when the call was answered, or timed out, long before its bytes left. A buffer
 * that is never released is not reused (the garbage collector frees it); one released too often
 * fails with {@code IllegalReferenceCountException} rather than being handed out twice.
 *
 * <p><b>Slices.</b> {@code retainedSlice(index, length)} of a pooled buffer is a buffer of its own
 * (own indices, own reference count, own cached NIO view) that holds one reference to the pooled
 * buffer until it is released. Netty's derived slices share their parent's cached NIO buffer, and
 * the event loops writing a stripe's chunks to different pods would race on it.
 *
 * <p><b>Contents.</b> An acquired buffer's bytes are undefined (a reused one holds an earlier
 * stripe): callers write, or zero, every byte they read or send.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>bound</th></tr>
 *   <tr><td>free memory kept</td><td>{@code data.buffers.poolBytes} (64 MiB); a buffer released
 *       beyond it is left to the garbage collector</td></tr>
 *   <tr><td>memory in use</td><td>not bounded here: by the users' windows
 *       ({@code data.write.maxInFlightStripes}, {@code data.read.aheadStripes})</td></tr>
 *   <tr><td>size classes</td><td>quarter powers of two from 4 KiB (a 16+4 stripe of 64 KiB chunks,
 *       1.25 MiB, is a class of its own, and so is one of 256 KiB large-file chunks, 5 MiB: the
 *       default pool keeps 12 of those); at most a quarter of a buffer is slack</td></tr>
 * </table>
 *
 * <p>Thread-safe.
 */
final class StripeBuffers {
    /** The smallest size class. */
    static final int MIN_CLASS = 4096;

    private final long maxIdleBytes;
    private final ConcurrentMap<Integer, Deque<ByteBuffer>> free = new ConcurrentHashMap<>();
    private final AtomicLong idleBytes = new AtomicLong();

    /** @param maxIdleBytes free memory kept for reuse; 0 keeps none */
    StripeBuffers(long maxIdleBytes) {
        if (maxIdleBytes < 0) {
            throw new IllegalArgumentException("maxIdleBytes must be >= 0: " + maxIdleBytes);
        }
        this.maxIdleBytes = maxIdleBytes;
    }

    /**
     * A buffer of {@code capacity} bytes (reader index 0, writer index {@code capacity}) whose first
     * byte is 64-byte aligned; its contents are undefined. The caller owns its one reference.
     */
    ByteBuf acquire(int capacity) {
        int size = sizeClass(capacity);
        Deque<ByteBuffer> list = free.get(size);
        ByteBuffer memory = list == null ? null : list.pollFirst();
        if (memory != null) {
            idleBytes.addAndGet(-size);
        } else {
            memory = AlignedBuffers.allocate(size);
        }
        return new Lease(this, memory, capacity);
    }

    /** Bytes of free memory held for reuse. */
    long idleBytes() {
        return idleBytes.get();
    }

    /** The capacity allocated for a request of {@code capacity} bytes. */
    static int sizeClass(int capacity) {
        if (capacity < 0 || capacity > Integer.MAX_VALUE - AlignedBuffers.ALIGNMENT) {
            throw new IllegalArgumentException("capacity outside [0, 2^31 - 65]: " + capacity);
        }
        if (capacity <= MIN_CLASS) {
            return MIN_CLASS;
        }
        int log2 = 31 - Integer.numberOfLeadingZeros(capacity - 1);
        long step = 1L << (log2 - 2);
        long size = (capacity + step - 1) / step * step;
        return size > Integer.MAX_VALUE - AlignedBuffers.ALIGNMENT ? capacity : (int) size;
    }

    private void giveBack(ByteBuffer memory) {
        int size = memory.capacity();
        if (idleBytes.addAndGet(size) > maxIdleBytes) {
            idleBytes.addAndGet(-size);
            return;
        }
        free.computeIfAbsent(size, s -> new ConcurrentLinkedDeque<>()).offerFirst(memory);
    }

    /** A buffer over pooled memory that gives the memory back when its last reference goes. */
    private static final class Lease extends UnpooledDirectByteBuf {
        private final StripeBuffers pool;
        private final ByteBuffer memory;

        Lease(StripeBuffers pool, ByteBuffer memory, int capacity) {
            // The wrapped-buffer constructor never frees the memory itself: deallocate hands it back.
            super(UnpooledByteBufAllocator.DEFAULT, memory.slice(0, capacity), capacity);
            this.pool = pool;
            this.memory = memory;
        }

        @Override
        public ByteBuf retainedSlice(int index, int length) {
            checkIndex(index, length);
            retain();
            return new View(this, memory.slice(index, length));
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            pool.giveBack(memory);
        }
    }

    /** Part of a pooled buffer, holding one reference to it. */
    private static final class View extends UnpooledDirectByteBuf {
        private final Lease lease;

        View(Lease lease, ByteBuffer part) {
            super(UnpooledByteBufAllocator.DEFAULT, part, part.capacity());
            this.lease = lease;
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            lease.release();
        }
    }
}
