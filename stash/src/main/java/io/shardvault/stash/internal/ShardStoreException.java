package io.shardvault.stash.internal;

import io.shardvault.common.DiskFull;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * A {@link ShardStore} operation failed: the disk, the database, or the stored bytes. The message
 * names the operation; {@link #operation()} gives it to callers that log or count. Its code is
 * {@code NO_SPACE} when the disk or RocksDB said it is full ("No space left", "NoSpace"),
 * {@code CORRUPT} for a {@link CorruptEntryException}, {@code INTERNAL} otherwise: the RPC layer
 * sends it.
 */
public class ShardStoreException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    private final String operation;

    public ShardStoreException(String operation, String message, Throwable cause) {
        this(null, operation, message, cause);
    }

    public ShardStoreException(String operation, String message) {
        super(codeOf(null, operation + ": " + message), operation + ": " + message);
        this.operation = operation;
    }

    /** @param code the code, or null to read it from the message */
    ShardStoreException(ErrorCode code, String operation, String message, Throwable cause) {
        super(codeOf(code, operation + ": " + message), operation + ": " + message, cause);
        this.operation = operation;
    }

    private static ErrorCode codeOf(ErrorCode code, String message) {
        if (code != null) {
            return code;
        }
        return DiskFull.says(message) ? ErrorCode.NO_SPACE : ErrorCode.INTERNAL;
    }

    public String operation() {
        return operation;
    }
}
