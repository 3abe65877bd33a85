package io.shardvault.common.rpc.internal;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WARN written when a connection is closed for cause (a handshake refused for want of a
 * certificate of the cluster CA, bytes that are not TLS or not frames), at most once per remote
 * address per window: a port scanner, or a peer without the cluster's certificate reconnecting in a
 * loop, would otherwise write a line per connection. The first closing from an address in a window is
 * logged, with {@code suppressed=N} when lines from it were skipped in the window before; the others
 * are only counted. A count is reported with the address's next line, so the last window's count of
 * an address that goes quiet is never logged.
 *
 * <p>Memory is bounded: past {@code maxAddresses} tracked addresses, idle ones are forgotten, and if
 * all are recent, further addresses share one window (one line per window for all of them).
 *
 * <p>Thread-safe.
 */
public final class ClosedConnectionLog {
    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final int MAX_ADDRESSES = 4096;
    /** The one window of the addresses beyond {@code maxAddresses}. */
    private static final String OTHERS = "other addresses";

    private final Logger log;
    private final long windowNanos;
    private final int maxAddresses;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<Object, Window> windows = new ConcurrentHashMap<>();

    ClosedConnectionLog(Logger log, Duration window, int maxAddresses, LongSupplier nanoTime) {
        this.log = Objects.requireNonNull(log, "log");
        this.windowNanos = window.toNanos();
        this.maxAddresses = maxAddresses;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** One line per address per minute, for the connections of one server or one client. */
    public static ClosedConnectionLog perMinute() {
        return new ClosedConnectionLog(LoggerFactory.getLogger(ClosedConnectionLog.class), WINDOW, MAX_ADDRESSES,
                System::nanoTime);
    }

    /** Logs, or counts, that the connection from {@code remote} is closed because of {@code reason}. */
    public void closing(SocketAddress remote, String reason) {
        if (remote == null) {
            log.warn("closing connection remote=unknown reason=\"{}\"", reason);
            return;
        }
        long now = nanoTime.getAsLong();
        Object key = remote instanceof InetSocketAddress inet && inet.getAddress() != null ? inet.getAddress() : remote;
        if (!windows.containsKey(key) && windows.size() >= maxAddresses) {
            windows.values().removeIf(w -> w.expired(now, windowNanos));
            if (windows.size() >= maxAddresses) {
                key = OTHERS;
            }
        }
        long[] suppressedBefore = {-1};
        windows.compute(key, (k, w) -> {
            if (w == null || w.expired(now, windowNanos)) {
                suppressedBefore[0] = w == null ? 0 : w.suppressed;
                return new Window(now);
            }
            w.suppressed++;
            return w;
        });
        if (suppressedBefore[0] == 0) {
            log.warn("closing connection remote={} reason=\"{}\"", remote, reason);
        } else if (suppressedBefore[0] > 0) {
            log.warn("closing connection remote={} reason=\"{}\" suppressed={} (closings from {} not logged in the "
                    + "previous {} s)", remote, reason, suppressedBefore[0], key, windowNanos / 1_000_000_000L);
        }
    }

    /** {@code suppressed} is read and changed only inside {@link ConcurrentHashMap#compute}. */
    private static final class Window {
        private final long startNanos;
        private long suppressed;

        Window(long startNanos) {
            this.startNanos = startNanos;
        }

        boolean expired(long now, long windowNanos) {
            return now - startNanos >= windowNanos;
        }
    }
}
