package io.shardvault.stash.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;

/**
 * A stored entry failed a check (its CRC32C, its format, or RocksDB's own checksums): its bytes
 * must never be served as data.
 */
public final class CorruptEntryException extends ShardStoreException {
    private static final long serialVersionUID = 1L;

    private final transient ShardId id;

    public CorruptEntryException(String operation, ShardId id, String message) {
        this(operation, id, message, null);
    }

    public CorruptEntryException(String operation, ShardId id, String message, Throwable cause) {
        super(ErrorCode.CORRUPT, operation, (id == null ? "" : id + ": ") + message, cause);
        this.id = id;
    }

    /** The corrupt entry, or null when RocksDB could not say which. */
    public ShardId id() {
        return id;
    }
}
