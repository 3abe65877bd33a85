package io.shardvault.stash.internal;

import java.io.IOException;

/**
 * A {@link ShardStore} operation failed: the disk, the database, or the stored bytes. The message
 * names the operation; {@link #operation()} gives it to callers that log or count.
 */
public class ShardStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String operation;

    public ShardStoreException(String operation, String message, Throwable cause) {
        super(operation + ": " + message, cause);
        this.operation = operation;
    }

    public ShardStoreException(String operation, String message) {
        super(operation + ": " + message);
        this.operation = operation;
    }

    public String operation() {
        return operation;
    }
}
