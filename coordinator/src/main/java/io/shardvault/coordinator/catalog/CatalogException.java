package io.shardvault.coordinator.catalog;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * A catalog operation failed. {@link #code()} says what the caller can do about it:
 * {@code NO_SUCH_BUCKET}, {@code NO_SUCH_KEY}, {@code NO_SUCH_VERSION}, {@code PRECONDITION_FAILED},
 * {@code ACCESS_DENIED} and the like are answers, deterministic in the log order, and safe to map
 * straight to an S3 error; {@code NOT_LEADER}, {@code UNAVAILABLE} and {@code TIMEOUT} mean the
 * group could not answer in time (the operation may or may not have been applied; every write
 * carries a request id, so the client's own retries never apply it twice).
 */
public class CatalogException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    public CatalogException(ErrorCode code, String message) {
        super(code, message);
    }

    public CatalogException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }

    @Override
    public String toString() {
        return "CatalogException[" + code() + "]: " + getMessage();
    }
}
