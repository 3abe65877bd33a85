package io.shardvault.common.nativelib;

import java.io.IOException;

/**
 * The shim for the operating-system calls Java has no API for ({@code libshardvaultfs}: syncfs for
 * {@code FileSystemSync}, thread priorities for {@code ThreadPriority}, page-cache reads for {@code CachedRead}),
 * loaded once for all of them: each user loading it by itself would map a copy of its own. The ABI check refuses a
 * stale library (one extracted by an older build), whose missing functions would otherwise fail only when first
 * called.
 */
public final class OsCalls {
    /** The library's file name in the jar ({@link NativeLibraries#resourcePath}). */
    public static final String LIBRARY = "libshardvaultfs.so";
    private static final int ABI_VERSION = 3;

    private OsCalls() {
    }

    /** Null when the shim is loaded and of this build's ABI, else why not (not Linux, not built, stale). */
    public static String unavailableBecause() {
        return Holder.UNAVAILABLE;
    }

    private static final class Holder {
        static final String UNAVAILABLE = load();
    }

    private static String load() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return "not Linux";
        }
        try {
            NativeLibraries.load(LIBRARY, null);
            int abi = abi();
            return abi == ABI_VERSION ? null : LIBRARY + " reports ABI " + abi + ", expected " + ABI_VERSION;
        } catch (IOException | LinkageError | SecurityException e) {
            return e.toString();
        }
    }

    private static native int abi();
}
