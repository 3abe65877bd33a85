package io.shardvault.common.rpc.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The pooled connections to one peer: a fixed number of slots, used round-robin, each holding a
 * connection or a connection attempt. A slot whose connection closed or failed to open is
 * reconnected by the next call that lands on it, so a restarted peer is found again.
 *
 * <p>Thread-safe.
 */
public final class PeerPool {
    private final Supplier<CompletableFuture<ClientConnection>> connector;
    private final List<CompletableFuture<ClientConnection>> slots;
    private final AtomicInteger next = new AtomicInteger();

    public PeerPool(int size, Supplier<CompletableFuture<ClientConnection>> connector) {
        this.connector = connector;
        this.slots = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            slots.add(null);
        }
    }

    /** A live connection, or one being opened. */
    public CompletableFuture<ClientConnection> acquire() {
        int index = Math.floorMod(next.getAndIncrement(), slots.size());
        synchronized (slots) {
            CompletableFuture<ClientConnection> slot = slots.get(index);
            if (slot == null || isDead(slot)) {
                slot = connector.get();
                slots.set(index, slot);
            }
            return slot;
        }
    }

    /** Every connection that opened and has not been replaced. */
    public List<ClientConnection> connections() {
        List<ClientConnection> out = new ArrayList<>();
        synchronized (slots) {
            for (CompletableFuture<ClientConnection> slot : slots) {
                if (slot != null && slot.isDone() && !slot.isCompletedExceptionally()) {
                    out.add(slot.join());
                }
            }
        }
        return out;
    }

    private static boolean isDead(CompletableFuture<ClientConnection> slot) {
        return slot.isDone() && (slot.isCompletedExceptionally() || !slot.join().isActive());
    }
}
