package io.shardvault.coordinator.admin.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a future on behalf of a JMX operation. A failure becomes an
 * {@link IllegalStateException} (or the {@link IllegalArgumentException} itself) with a readable
 * message and no cause: JMX clients such as JConsole do not have our exception classes.
 */
final class Await {
    /** How long an operation may take: catalog writes wait out an election. */
    static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);

    private Await() {
    }

    static <T> T get(CompletableFuture<T> future, String what) {
        try {
            return future.get(OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IllegalArgumentException) {
                throw new IllegalArgumentException(what + ": " + c.getMessage());
            }
            throw new IllegalStateException(what + " failed: " + (c.getMessage() == null ? c.toString()
                    : c.getMessage()));
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not finish within " + OPERATION_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
    }

    /** Runs {@code call} (which may throw an argument check directly) and waits for it. */
    static <T> T call(java.util.function.Supplier<CompletableFuture<T>> call, String what) {
        CompletableFuture<T> f;
        try {
            f = call.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
        return get(f, what);
    }
}
