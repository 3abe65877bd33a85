package io.shardvault.coordinator.repair;

import io.netty.util.ReferenceCounted;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Bounded waits of the repair threads (which block: they are the repair's own, never an event loop). */
public final class Bounded {
    private Bounded() {
    }

    /**
     * The value of {@code f}, or its failure, or no answer within {@code limit}, as an IOException naming
     * {@code what}. A buffer that arrives after the wait gave up (out of time, or interrupted) is released.
     */
    public static <T> T await(CompletableFuture<T> f, Duration limit, String what) throws IOException, InterruptedException {
        try {
            return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IOException(what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            releaseWhenLate(f);
            throw new IOException(what + ": no answer within " + limit, e);
        } catch (InterruptedException e) {
            // A worker closed mid-call: its answer still arrives, and nobody else will release it.
            releaseWhenLate(f);
            throw e;
        }
    }

    private static void releaseWhenLate(CompletableFuture<?> f) {
        f.whenComplete((v, t) -> {
            if (v instanceof ReferenceCounted late) {
                late.release();
            }
        });
    }
}
