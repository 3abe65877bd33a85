package io.shardvault.coordinator.catalog;

import io.shardvault.common.ErrorCode;
import java.io.IOException;
import java.util.Objects;

/**
 * A catalog operation failed. {@link #code()} says what the caller can do about it:
 * {@code NO_SUCH_BUCKET}, {@code NO_SUCH_KEY}, {@code NO_SUCH_VERSION}, {@code PRECONDITION_FAILED},
 * {@code ACCESS_DENIED} and the like are answers, deterministic in the log order, and safe to map
 * straight to an S3 error; {@code NOT_LEADER}, {@code UNAVAILABLE} and {@code TIMEOUT} mean the
 * group could not answer in time (the operation may or may not have been applied; every write
 * carries a request id, so the client's own retries never apply it twice).
 */
public class CatalogException extends IOException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public CatalogException(ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public CatalogException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** The stable code of this failure. */
    public ErrorCode code() {
        return code;
    }

    @Override
    public String toString() {
        return "CatalogException[" + code + "]: " + getMessage();
    }
}
