package io.shardvault.coordinator.repair;

import io.shardvault.coordinator.catalog.CatalogServer;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether this coordinator has led the catalog long enough to rewrite shards on pods: its peer leads, and
 * has led in the same Raft term for at least the takeover delay, as this object saw it.
 *
 * <p>Why a delay: repairs and rebuilds delete a shard before rewriting it, and the pods cannot tell one
 * coordinator from another. A deposed leader (cut off from its peers, say) still believes it leads until it
 * notices, and a pod call it sent just before may still be in flight; were the new leader to start at once,
 * the old one's delete could land after the new one's rewrite and the file would be recorded repaired with
 * a shard missing. The deposed leader checks this object before each step and stops when its peer no longer
 * leads; the new one waits out the delay first. The delay is counted from the first time this object saw
 * the term, so a check made rarely only makes it later, never earlier. A new term restarts it: a peer that
 * lost and regained the lead in between may have a successor's calls still in flight.
 *
 * <p>Thread-safe.
 */
public final class LeaderTenure implements BooleanSupplier {
    private final BooleanSupplier leads;
    private final LongSupplier term;
    private final LongSupplier delayNanos;
    private final LongSupplier nanoTime;
    private long seenTerm = -1;
    private long seenAtNanos;

    /**
     * @param leads whether this coordinator's catalog peer leads now
     * @param term the peer's current Raft term
     * @param delay how long a term's leadership must have lasted
     * @param nanoTime the clock ({@link System#nanoTime})
     */
    public LeaderTenure(BooleanSupplier leads, LongSupplier term, Duration delay, LongSupplier nanoTime) {
        this(leads, term, checked(delay)::toNanos, nanoTime);
    }

    private LeaderTenure(BooleanSupplier leads, LongSupplier term, LongSupplier delayNanos, LongSupplier nanoTime) {
        this.leads = leads;
        this.term = term;
        this.delayNanos = delayNanos;
        this.nanoTime = nanoTime;
    }

    private static Duration checked(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("the takeover delay must be >= 0: " + delay);
        }
        return delay;
    }

    /**
     * The tenure of {@code server}'s peer: the takeover delay, none while the group has this one peer (there is
     * no other leader whose calls could still be in flight). The group's size is asked at every check, not
     * taken from catalog.peers at start: a group grown by add-peer has other leaders from then on.
     */
    public static LeaderTenure of(CatalogServer server, Duration takeoverDelay) {
        long delay = checked(takeoverDelay).toNanos();
        return new LeaderTenure(server::isLeader, server::term,
                () -> server.status().peers().size() == 1 ? 0 : delay, System::nanoTime);
    }

    /** Whether the peer leads and has led in this term for the delay. */
    @Override
    public synchronized boolean getAsBoolean() {
        long now = nanoTime.getAsLong();
        // leads() first: a term read after it is the term it led in or a later one, which only restarts the delay.
        boolean leading = leads.getAsBoolean();
        long t = term.getAsLong();
        if (!leading || t < 0) {
            seenTerm = -1;
            return false;
        }
        if (t != seenTerm) {
            seenTerm = t;
            seenAtNanos = now;
        }
        return now - seenAtNanos >= delayNanos.getAsLong();
    }
}
