package io.shardvault.coordinator.data;

import io.shardvault.common.ErrorCode;

import java.io.IOException;
import java.util.Objects;

/**
 * A write, read or delete that could not be done, with the stable code a caller maps to its answer:
 * {@code UNAVAILABLE} when too few pods (or stash servers) answered for the write quorum or for a
 * decode, {@code NOT_FOUND} for an unknown vault, {@code BAD_REQUEST} for a range outside the file.
 * The message names the file, the stripe and, per shard, why it was unusable.
 */
public final class DataPathException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public DataPathException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public DataPathException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    public ErrorCode code() {
        return code;
    }
}
