package io.shardvault.coordinator.catalog;

import io.shardvault.common.ErrorCode;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one delete of a {@link Catalog#deleteObjects} batch: its result, or the typed
 * error it failed with (that item's changes were not made; the others' were).
 *
 * @param request the delete asked for
 * @param result its result when it succeeded
 * @param error its error code when it failed
 * @param errorMessage the error's message ("" on success)
 */
public record DeleteOutcome(DeleteObjectVersion request, Optional<DeleteResult> result, Optional<ErrorCode> error,
                            String errorMessage) {
    public DeleteOutcome {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(errorMessage, "errorMessage");
        if (result.isPresent() == error.isPresent()) {
            throw new IllegalArgumentException("an outcome is a result or an error");
        }
    }
}
