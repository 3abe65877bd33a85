package io.shardvault.pod.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.shardvault.common.ShardId;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Helpers of the pod's node tests: a shard's bytes as an array, and a bounded wait for a condition. */
final class PodTesting {
    private PodTesting() {
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
