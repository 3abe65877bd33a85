package io.shardvault.bench;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar on stderr, redrawn at most every 200 ms. Thread-safe: workers call {@link #step()}.
 * Silent when disabled (for {@code --json} or when not attached to a terminal). A total of
 * {@link Long#MAX_VALUE} (a run bounded by time) draws the count alone.
 */
final class ProgressBar implements AutoCloseable {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private final String title;
    private final long total;
    private final boolean enabled;
    private final AtomicLong done = new AtomicLong();
    private final long startNanos = System.nanoTime();
    private volatile long lastDrawNanos;

    ProgressBar(PrintStream out, String title, long total, boolean enabled) {
        this.out = out;
        this.title = title;
        this.total = Math.max(1, total);
        this.enabled = enabled;
    }

    void step() {
        long d = done.incrementAndGet();
        long now = System.nanoTime();
        if (enabled && (now - lastDrawNanos > 200_000_000L || d == total)) {
            lastDrawNanos = now;
            draw(d, now);
        }
    }

    private synchronized void draw(long d, long now) {
        double secs = (now - startNanos) / 1e9;
        if (total == Long.MAX_VALUE) {
            out.printf("\r%-28s %d %.1fs", title, d, secs);
        } else {
            int filled = (int) (WIDTH * d / total);
            out.printf("\r%-28s [%s%s] %d/%d %.1fs", title, "#".repeat(filled), " ".repeat(WIDTH - filled), d,
                    total, secs);
        }
        out.flush();
    }

    @Override
    public void close() {
        if (enabled) {
            out.println();
        }
    }
}
