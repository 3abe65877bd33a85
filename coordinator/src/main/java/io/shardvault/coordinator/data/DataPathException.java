package io.shardvault.coordinator.data;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * A write, read or delete that could not be done, with the stable code a caller maps to its answer:
 * {@code UNAVAILABLE} when too few pods (or stash servers) answered for the write quorum or for a
 * decode, {@code NOT_FOUND} for an unknown vault, {@code BAD_REQUEST} for a range outside the file.
 * The message names the file, the stripe and, per shard, why it was unusable.
 */
public final class DataPathException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    public DataPathException(ErrorCode code, String message) {
        super(code, message);
    }

    public DataPathException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
