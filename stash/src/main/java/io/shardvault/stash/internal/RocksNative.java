package io.shardvault.stash.internal;

import org.rocksdb.RocksDB;

/**
 * Loads RocksDB's JNI library once per process and keeps the cause when it cannot be loaded, so
 * that every later attempt reports the original failure instead of a bare
 * {@link UnsatisfiedLinkError}.
 *
 * <p>Thread-safe.
 */
public final class RocksNative {
    private static final Throwable UNAVAILABILITY_CAUSE = load();

    private RocksNative() {
    }

    private static Throwable load() {
        try {
            RocksDB.loadLibrary();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /** Why RocksDB cannot be used, or null when it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    /** Throws, with the original cause, when the library could not be loaded. */
    public static void ensureAvailable() throws ShardStoreException {
        if (UNAVAILABILITY_CAUSE != null) {
            throw new ShardStoreException("load rocksdb", "the RocksDB JNI library cannot be loaded: "
                    + UNAVAILABILITY_CAUSE, UNAVAILABILITY_CAUSE);
        }
    }
}
