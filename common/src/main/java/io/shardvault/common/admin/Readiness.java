package io.shardvault.common.admin;

import java.util.Objects;

/**
 * Whether a process is ready to serve, and if not, why (shown to the operator in the body of
 * {@code /health/ready}).
 */
public record Readiness(boolean isReady, String reason) {
    private static final Readiness READY = new Readiness(true, "ready");

    public Readiness {
        Objects.requireNonNull(reason, "reason");
    }

    public static Readiness ready() {
        return READY;
    }

    public static Readiness notReady(String reason) {
        return new Readiness(false, reason);
    }
}
