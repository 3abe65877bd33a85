package io.shardvault.coordinator.repair;

import io.micrometer.core.instrument.Counter;
import io.shardvault.common.DaemonThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background pass of the leading coordinator (orphan collection, lifecycle expiry) on its own thread: every
 * {@code interval} after the previous one ended, and on demand ({@link #runNow()}), never two at once. A pass
 * that fails with an IOException (a catalog or pod call) is logged and retried at the next; one that fails
 * otherwise (a bug) is logged with its stack and counted. Whether a pass has anything to do (the lead) is the
 * pass's own business.
 *
 * @param <R> what a pass reports
 */
public final class PeriodicPass<R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicPass.class);

    /** One pass. */
    @FunctionalInterface
    public interface Body<R> {
        R run() throws IOException, InterruptedException;
    }

    private final String what;
    private final Body<R> body;
    private final Counter failures;
    private final ScheduledExecutorService thread;

    private PeriodicPass(String thread, String what, Body<R> body, Counter failures) {
        this.what = what;
        this.body = body;
        this.failures = failures;
        this.thread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(thread));
    }

    /**
     * Starts the passes, the first one {@code interval} from now.
     *
     * @param thread the thread's name
     * @param what the pass, as the log names it ("orphan collection pass")
     * @param failures counts the passes that failed with anything but an IOException
     */
    public static <R> PeriodicPass<R> start(String thread, String what, Duration interval, Counter failures,
                                            Body<R> body) {
        PeriodicPass<R> p = new PeriodicPass<>(thread, what, body, failures);
        p.thread.scheduleWithFixedDelay(p::scheduled, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return p;
    }

    /** Runs a pass now, on the passes' thread (after the one running, if any), and waits for it. */
    public R runNow() throws IOException, InterruptedException {
        try {
            return thread.submit(body::run).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(what, e.getCause());
        }
    }

    private void scheduled() {
        try {
            body.run();
        } catch (IOException e) {
            LOG.warn("{} failed; retrying on the next: {}", what, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.increment();
            LOG.error("{} failed", what, e);
        }
    }

    /** Stops the passes, interrupting one under way. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
