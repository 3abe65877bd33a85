package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A purge queue whose appends can be made to fail, as a full or failing state disk would: a failed
 * append queues nothing ({@link #failNextAppends}); the others go to the real {@link PurgeQueue}.
 *
 * <p>Thread-safe.
 */
final class FaultPurgeLog implements PurgeEvents.Log {
    private final PurgeQueue queue;
    private final AtomicInteger failing = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();

    FaultPurgeLog(PurgeQueue queue) {
        this.queue = queue;
    }

    /** The next {@code n} appends fail with an IOException and append nothing. */
    void failNextAppends(int n) {
        failing.set(n);
    }

    /** How many appends failed so far. */
    int failedAppends() {
        return failed.get();
    }

    @Override
    public void append(Collection<ShardId> ids) throws IOException {
        if (failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failed.incrementAndGet();
            throw new IOException("injected: purge queue append failed (" + ids.size() + " events)");
        }
        queue.append(ids);
    }
}
