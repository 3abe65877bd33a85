package io.shardvault.common.erasure.internal;

import io.shardvault.common.nativelib.NativeLibraries;
import java.io.IOException;

/**
 * Loads libjerasure4j once per process ({@link NativeLibraries}) and remembers why it failed.
 *
 * <p>Thread-safe: the holder idiom runs the load exactly once.
 */
public final class Jerasure4jLoader {

    /** System property that, when {@code true}, keeps the native library from loading. */
    public static final String DISABLE_PROPERTY = "shardvault.erasure.native.disabled";

    /**
     * System property naming the directory the library is extracted to (default {@code java.io.tmpdir});
     * set it where the temporary directory is mounted noexec.
     */
    public static final String WORKDIR_PROPERTY = "shardvault.erasure.native.workdir";

    /** The ABI version the shim reports from {@code init()}; bumped with any native signature change. */
    static final int ABI_VERSION = 2;

    private static final String LIBRARY = "libjerasure4j.so";

    private Jerasure4jLoader() {
    }

    /** Null when the library is loaded and initialised, else why not. */
    public static Throwable cause() {
        return Holder.CAUSE;
    }

    /** The jar path of the library for this platform, e.g. {@code native/linux-x86_64/libjerasure4j.so}. */
    public static String resourcePath() {
        return NativeLibraries.resourcePath(LIBRARY);
    }

    private static final class Holder {
        static final Throwable CAUSE = load();
    }

    private static Throwable load() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            return new UnsupportedOperationException("native erasure code disabled by -D" + DISABLE_PROPERTY + "=true");
        }
        try {
            NativeLibraries.load(LIBRARY, System.getProperty(WORKDIR_PROPERTY));
            int abi = Jerasure4j.init();
            if (abi != ABI_VERSION) {
                return new UnsatisfiedLinkError("jerasure4j reports ABI " + abi + ", expected " + ABI_VERSION
                        + (abi < 0 ? " (galois_init_default_field failed)" : ""));
            }
            return null;
        } catch (IOException | LinkageError | SecurityException e) {
            return e;
        }
    }
}
