package io.shardvault.common.admin;

import java.util.Objects;

/**
 * Whether a process is ready to serve, and if not, why (shown to the operator in the body of
 * {@code /health/ready}). A process that serves with a part of it broken is {@link #degraded}:
 * ready (HTTP 200, so a load balancer keeps sending it work) with the broken part named in the body.
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

    /** Ready, but with {@code what} broken: the body reads {@code ready, degraded: <what>}. */
    public static Readiness degraded(String what) {
        return new Readiness(true, "ready, degraded: " + what);
    }
}
