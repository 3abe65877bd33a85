package io.shardvault.coordinator.data.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import io.shardvault.common.erasure.AlignedBuffers;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StripeBuffersTest {
    private static final Logger LOG = LoggerFactory.getLogger(StripeBuffersTest.class);
    private static final int STRIPE = 20 * 64 * 1024;

    @Test
    void aReleasedBufferIsReusedAsItWasNotZeroed() {
        StripeBuffers pool = new StripeBuffers(64L << 20);
        ByteBuf first = pool.acquire(STRIPE);
        assertThat(first.capacity()).isEqualTo(STRIPE);
        assertThat(first.nioBuffer(0, STRIPE).alignmentOffset(0, AlignedBuffers.ALIGNMENT)).isZero();
        fill(first, (byte) 0x5A);
        first.release();
        assertThat(pool.idleBytes()).isEqualTo(STRIPE);

        ByteBuf second = pool.acquire(STRIPE - 100);
        assertThat(pool.idleBytes()).isZero();
        assertThat(second.capacity()).isEqualTo(STRIPE - 100);
        assertThat(second.getByte(0)).isEqualTo((byte) 0x5A);
        assertThat(second.getByte(STRIPE - 101)).isEqualTo((byte) 0x5A);
        second.release();
    }

    @Test
    void memoryARetainedSliceStillReadsIsNotHandedOutAgain() {
        StripeBuffers pool = new StripeBuffers(64L << 20);
        ByteBuf stripe = pool.acquire(STRIPE);
        fill(stripe, (byte) 1);
        // An RPC's chunk, still queued in a channel after its stripe was acknowledged.
        ByteBuf inFlight = stripe.retainedSlice(64 * 1024, 64 * 1024);
        stripe.release();
        assertThat(pool.idleBytes()).isZero();

        ByteBuf next = pool.acquire(STRIPE);
        fill(next, (byte) 2);
        assertStamped(inFlight, (byte) 1);
        next.release();
        inFlight.release();
        assertThat(pool.idleBytes()).isEqualTo(2L * STRIPE);
    }

    @Test
    void aSecondReleaseFailsAndGivesNothingBackTwice() {
        StripeBuffers pool = new StripeBuffers(64L << 20);
        ByteBuf buf = pool.acquire(STRIPE);
        buf.release();
        assertThatThrownBy(buf::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(pool.idleBytes()).isEqualTo(STRIPE);
        ByteBuf a = pool.acquire(STRIPE);
        ByteBuf b = pool.acquire(STRIPE);
        fill(a, (byte) 3);
        fill(b, (byte) 4);
        assertThat(a.getByte(STRIPE / 2)).isEqualTo((byte) 3);
        a.release();
        b.release();
    }

    @Test
    void freeMemoryKeptStaysWithinTheBound() {
        StripeBuffers pool = new StripeBuffers(3L * STRIPE);
        List<ByteBuf> held = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            held.add(pool.acquire(STRIPE));
        }
        held.forEach(ByteBuf::release);
        assertThat(pool.idleBytes()).isEqualTo(3L * STRIPE);

        StripeBuffers none = new StripeBuffers(0);
        none.acquire(STRIPE).release();
        assertThat(none.idleBytes()).isZero();
    }

    @Test
    void sizeClassesAreQuarterPowersOfTwo() {
        assertThat(StripeBuffers.sizeClass(0)).isEqualTo(StripeBuffers.MIN_CLASS);
        assertThat(StripeBuffers.sizeClass(320)).isEqualTo(StripeBuffers.MIN_CLASS);
        assertThat(StripeBuffers.sizeClass(4097)).isEqualTo(5 * 1024);
        assertThat(StripeBuffers.sizeClass(STRIPE)).isEqualTo(STRIPE);
        assertThat(StripeBuffers.sizeClass(1 << 21)).isEqualTo(1 << 21);
        assertThat(StripeBuffers.sizeClass((1 << 21) + 1)).isEqualTo((1 << 21) + (1 << 19));
        for (int c = 4097; c < (1 << 24); c = c * 3 / 2 + 7) {
            int size = StripeBuffers.sizeClass(c);
            assertThat(size).isGreaterThanOrEqualTo(c);
            assertThat((double) size - c).isLessThanOrEqualTo(c / 4.0);
        }
    }

    /**
     * Threads take buffers, stamp every byte, hand a retained slice to another thread (as a write
     * that completes later) and check the stamp from both sides: a buffer handed out twice while in
     * use would carry another thread's stamp.
     */
    @Test
    void concurrentUsersNeverShareMemory() throws Exception {
        long seed = Long.getLong("test.seed", System.nanoTime());
        LOG.info("seed {} (rerun with -Dtest.seed={})", seed, seed);
        StripeBuffers pool = new StripeBuffers(8L * STRIPE);
        ExecutorService users = Executors.newFixedThreadPool(4);
        ExecutorService writers = Executors.newFixedThreadPool(2);
        AtomicInteger stamps = new AtomicInteger();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Random random = new Random(seed + t);
                done.add(users.submit(() -> {
                    List<Future<?>> writes = new ArrayList<>();
                    for (int round = 0; round < 200; round++) {
                        int size = 4096 + random.nextInt(STRIPE);
                        ByteBuf buf = pool.acquire(size);
                        byte stamp = (byte) stamps.incrementAndGet();
                        fill(buf, stamp);
                        int at = random.nextInt(size - 1024);
                        ByteBuf slice = buf.retainedSlice(at, 1024);
                        writes.add(writers.submit(() -> {
                            try {
                                assertStamped(slice, stamp);
                            } finally {
                                slice.release();
                            }
                        }));
                        Thread.yield();
                        assertStamped(buf, stamp);
                        buf.release();
                    }
                    for (Future<?> w : writes) {
                        w.get();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(100, TimeUnit.SECONDS);
            }
        } finally {
            users.shutdownNow();
            writers.shutdownNow();
        }
        assertThat(pool.idleBytes()).isBetween(1L, 8L * STRIPE);
    }

    private static void fill(ByteBuf buf, byte value) {
        byte[] bytes = new byte[buf.capacity()];
        java.util.Arrays.fill(bytes, value);
        buf.setBytes(0, bytes);
    }

    private static void assertStamped(ByteBuf buf, byte stamp) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != stamp) {
                throw new AssertionError("byte " + i + " is " + bytes[i] + ", stamped " + stamp
                        + ": the memory was handed out twice");
            }
        }
    }
}
