package io.shardvault.common.erasure;

import io.shardvault.common.erasure.internal.Jerasure4jLoader;

/**
 * Whether the native engine (the jerasure4j JNI shim over Jerasure 2 and gf-complete) is usable in
 * this process, and why not when it is not.
 *
 * <p>The library is looked for once, on first use of this class: it is extracted from the jar
 * ({@code native/<os>-<arch>/libjerasure4j.so}) to a temporary file and loaded; it needs the system's
 * {@code libJerasure.so.2} and {@code libgf_complete.so.1} (Debian: {@code libjerasure2},
 * {@code libgf-complete1}). {@code -Dshardvault.erasure.native.workdir=<dir>} extracts it elsewhere than
 * {@code java.io.tmpdir} (for a noexec /tmp). {@code -Dshardvault.erasure.native.disabled=true} turns native code off
 * for the whole process; the {@code erasure.codec=java} setting keeps {@link ErasureCodecs} from
 * loading it. On JDK 24 and later, {@link System#load} is a restricted method: run services with
 * {@code --enable-native-access=ALL-UNNAMED} to avoid the JVM's warning (a later JDK may refuse
 * without it, and the loader then reports that refusal as the cause).
 *
 * <p>Thread-safe; the answer never changes during the life of the process.
 */
public final class Jerasure {

    /** System property that, when {@code true}, keeps the native library from loading. */
    public static final String DISABLE_PROPERTY = Jerasure4jLoader.DISABLE_PROPERTY;

    private Jerasure() {
    }

    /** True when the native engine loaded and initialised. */
    public static boolean isAvailable() {
        return Jerasure4jLoader.cause() == null;
    }

    /** Why the native engine is unavailable, or null when it is available. */
    public static Throwable unavailabilityCause() {
        return Jerasure4jLoader.cause();
    }

    /**
     * Returns normally when the native engine is available.
     *
     * @throws UnsatisfiedLinkError naming why it is not, with the original failure as its cause
     */
    public static void ensureAvailability() {
        Throwable cause = Jerasure4jLoader.cause();
        if (cause != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "the native erasure codec (jerasure4j) is unavailable: " + cause);
            error.initCause(cause);
            throw error;
        }
    }
}
