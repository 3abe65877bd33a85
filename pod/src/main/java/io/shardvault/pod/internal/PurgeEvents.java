package io.shardvault.pod.internal;

import io.shardvault.common.ShardId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Puts purge events into the durable purge queue, and never forgets one whose append failed: it is
 * held in memory and appended again with the next events or on the flusher's next round
 * ({@link #retryHeld}). Until every held event is appended the pod must not record a clean
 * shutdown ({@link #held()}): the next start then runs recovery, which lists the stash and queues
 * the purges of the shards that are durable here. (Forgetting them left their stash copies for
 * good: a clean start skips recovery.)
 *
 * <p>Thread-safe; appends are serialised. Memory: the held events, at most the shards flushed while
 * the queue's disk fails.
 */
final class PurgeEvents {
    private static final Logger LOG = LoggerFactory.getLogger(PurgeEvents.class);

    /** Where events go: the {@link PurgeQueue}; a seam for tests that make its appends fail. */
    @FunctionalInterface
    interface Log {
        /** Appends the events durably; when this returns they are queued. */
        void append(Collection<ShardId> ids) throws IOException;
    }

    private final String name;
    private final Log log;
    private List<ShardId> held = new ArrayList<>();

    PurgeEvents(String name, Log log) {
        this.name = name;
        this.log = log;
    }

    /** Queues {@code ids} (after any held ones); on failure they are held, and the failure logged. */
    synchronized void queue(List<ShardId> ids) {
        List<ShardId> all = held;
        all.addAll(ids);
        held = new ArrayList<>();
        appendOrHold(all);
    }

    /** Appends the held events, if any; true when none is held any more. */
    synchronized boolean retryHeld() {
        if (!held.isEmpty()) {
            List<ShardId> all = held;
            held = new ArrayList<>();
            appendOrHold(all);
            if (held.isEmpty()) {
                LOG.info("pod {}: {} held purge events are queued now", name, all.size());
            }
        }
        return held.isEmpty();
    }

    /** Events whose append has not succeeded yet. */
    synchronized int held() {
        return held.size();
    }

    private void appendOrHold(List<ShardId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            log.append(ids);
        } catch (IOException | RuntimeException e) {
            held = ids;
            LOG.error("pod {}: cannot queue {} purge events; they are held and appended again on the next flush "
                    + "round, and until then the stash keeps those copies and a shutdown is not recorded as clean: "
                    + "{}", name, ids.size(), e.toString());
        }
    }
}
