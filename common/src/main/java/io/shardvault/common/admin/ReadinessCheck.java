package io.shardvault.common.admin;

/**
 * Tells the admin server whether the process is ready. Called on an admin thread for every
 * {@code /health/ready} request: it must be cheap, thread-safe and must not block.
 */
@FunctionalInterface
public interface ReadinessCheck {
    Readiness check();
}
