package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Decides whether native tests run. With {@code SHARDVAULT_REQUIRE_NATIVE=true} (CI) a native codec that
 * did not build or load fails the test; without it the test is skipped with the reason.
 */
public final class NativeSupport {

    public static final boolean REQUIRED = isTrue(System.getenv("SHARDVAULT_REQUIRE_NATIVE"));

    private NativeSupport() {
    }

    /** Returns when the native codec is usable; otherwise fails (CI) or aborts the test as skipped. */
    public static void assumeNative() {
        if (Jerasure.isAvailable()) {
            return;
        }
        Throwable cause = Jerasure.unavailabilityCause();
        if (REQUIRED) {
            fail("SHARDVAULT_REQUIRE_NATIVE=true but the native erasure codec did not load: " + cause, cause);
        }
        Assumptions.abort("native erasure codec unavailable, native tests skipped (set SHARDVAULT_REQUIRE_NATIVE=true "
                + "to make this a failure): " + cause);
    }

    private static boolean isTrue(String value) {
        return value != null && (value.equalsIgnoreCase("true") || value.equals("1") || value.equalsIgnoreCase("yes"));
    }
}
