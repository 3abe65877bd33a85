package io.shardvault.pod.internal;

import io.shardvault.common.ErrorCode;

import java.io.IOException;
import java.util.Objects;

/**
 * A shard operation that failed for a reason the caller can act on: the chunk's CRC does not
 * match ({@code CHECKSUM_MISMATCH}), stored bytes fail their CRC ({@code CORRUPT}), the shard or
 * range is absent ({@code NOT_FOUND}, {@code BAD_REQUEST}). The RPC layer sends {@link #code()}.
 */
public final class ShardStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ShardStoreException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public ErrorCode code() {
        return code;
    }
}
