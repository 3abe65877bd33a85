package io.shardvault.common.rpc.internal;

import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * How connections of the internal protocol flush. Answers are completed in bursts (a stash group
 * commit acknowledges every PUT it synced at once; a client sends the next requests of every call
 * its read just completed), and each {@code writeAndFlush} would otherwise be its own
 * {@code write(2)} and, on loopback, its own wake-up of the peer. Consolidating the flushes of one
 * event-loop turn sends such a burst in one system call; a lone frame is flushed at the end of
 * the turn it was written in, so nothing waits for a timer.
 */
public final class RpcFlushes {
    /** Flush at the latest after this many frames, so a long burst does not sit in memory. */
    private static final int MAX_CONSOLIDATED_FLUSHES = 64;

    private RpcFlushes() {
    }

    /** A new handler for one channel's pipeline (the handler keeps per-channel state). */
    public static FlushConsolidationHandler consolidating() {
        return new FlushConsolidationHandler(MAX_CONSOLIDATED_FLUSHES, true);
    }
}
