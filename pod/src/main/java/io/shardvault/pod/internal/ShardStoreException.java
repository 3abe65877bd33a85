package io.shardvault.pod.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * A shard operation that failed for a reason the caller can act on: the chunk's CRC does not
 * match ({@code CHECKSUM_MISMATCH}), stored bytes fail their CRC ({@code CORRUPT}), the shard or
 * range is absent ({@code NOT_FOUND}, {@code BAD_REQUEST}). The RPC layer sends {@link #code()}.
 */
public final class ShardStoreException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    public ShardStoreException(ErrorCode code, String message) {
        super(code, message);
    }
}
