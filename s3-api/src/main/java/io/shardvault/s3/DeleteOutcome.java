package io.shardvault.s3;

import java.util.Objects;

/**
 * One entry of a DeleteObjects answer: either a result or an error.
 *
 * @param target what was asked
 * @param result the result, or {@code null} when it failed
 * @param error the failure, or {@code null} when it succeeded
 */
public record DeleteOutcome(ObjectIdentifier target, DeleteResult result, ObjectStoreException error) {
    public DeleteOutcome {
        Objects.requireNonNull(target, "target");
        if ((result == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of result and error");
        }
    }

    public static DeleteOutcome deleted(ObjectIdentifier target, DeleteResult result) {
        return new DeleteOutcome(target, result, null);
    }

    public static DeleteOutcome failed(ObjectIdentifier target, ObjectStoreException error) {
        return new DeleteOutcome(target, null, error);
    }
}
