package io.shardvault.s3.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's open connections (the one count of them: the {@code shardvault.s3.connections} gauge reads
 * it), and whether each is in the middle of a request, so that closing the server lets the answers in
 * flight end before it closes their connections. A GET cut mid-body reaches a
 * client that does not check the length it was promised (Java's HttpURLConnection, under the AWS SDK's
 * URLConnection client, returns a short body as if whole) as a wrong object with status 200: a
 * coordinator's rolling restart served one so in NetnsClusterIT. Thread-safe.
 */
public final class OpenConnections {
    private static final long POLL_MILLIS = 20;

    private final Set<S3ServerHandler> handlers = ConcurrentHashMap.newKeySet();
    private volatile boolean draining;

    void opened(S3ServerHandler handler) {
        handlers.add(handler);
        if (draining) {
            handler.closeIfIdle();
        }
    }

    void closed(S3ServerHandler handler) {
        handlers.remove(handler);
    }

    /** How many connections are open now. */
    int count() {
        return handlers.size();
    }

    /** Whether the server is closing: a connection whose answer is out then closes instead of reading on. */
    boolean draining() {
        return draining;
    }

    /**
     * Closes idle connections at once and busy ones as their answers end, waiting at most {@code bound}.
     * Returns how many connections were still busy then (the caller's close of the event loops cuts them).
     */
    public int drain(Duration bound) {
        draining = true;
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            int busy = 0;
            for (S3ServerHandler handler : handlers) {
                if (!handler.closeIfIdle()) {
                    busy++;
                }
            }
            if (busy == 0 || System.nanoTime() >= deadline) {
                return busy;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return busy;
            }
        }
    }
}
