package io.shardvault.common;

/**
 * Whether a failure is a full disk: the JDK reports ENOSPC as an IOException saying "No space left on
 * device", RocksDB as a status naming "NoSpace". Callers answer {@link ErrorCode#NO_SPACE} for it, a refusal
 * the writer can route around, rather than an internal error.
 */
public final class DiskFull {
    private DiskFull() {
    }

    /** True when {@code message} (an exception's, or one built from it) says the disk is full. */
    public static boolean says(String message) {
        return message != null && (message.contains("No space left") || message.contains("NoSpace"));
    }
}
