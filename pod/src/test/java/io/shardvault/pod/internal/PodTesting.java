package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.shardvault.common.ShardId;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodSlot;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Helpers of the pod's node tests: the assignment they use, a shard's bytes as an array, and a
 * bounded wait for a condition.
 */
final class PodTesting {
    /** Slot 1:3, one stash server (the tests' in-memory stash answers for any address). */
    static final PodAssignment ASSIGNMENT = new PodAssignment(List.of(new PodSlot(1, 3)),
            List.of(new InetSocketAddress("127.0.0.1", 1)));

    private PodTesting() {
    }

    /** Assigns a newly opened node {@link #ASSIGNMENT}, as a coordinator would; returns it. */
    static PodNode assigned(PodNode node) throws IOException {
        node.assign(ASSIGNMENT);
        return node;
    }

    /** The first {@code length} bytes of a shard, the buffer released. */
    static byte[] read(PodNode node, ShardId id, int length) throws IOException {
        ByteBuf b = node.read(id, 0, length, ByteBufAllocator.DEFAULT);
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    /** Waits up to 30 s for {@code condition}, polling every 10 ms. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
