package io.shardvault.s3;

import java.time.Instant;

/**
 * The Object Lock state asked for on a write, or held by a version (issue #9). The S3 layer
 * parses the {@code x-amz-object-lock-*} headers into it; enforcing it is the store's job.
 *
 * @param mode the retention mode, or {@code null} for none
 * @param retainUntil the retain-until date, or {@code null} for none (set together with mode)
 * @param legalHold whether a legal hold is on
 */
public record ObjectLock(RetentionMode mode, Instant retainUntil, boolean legalHold) {
    public static final ObjectLock NONE = new ObjectLock(null, null, false);

    public ObjectLock {
        if ((mode == null) != (retainUntil == null)) {
            throw new IllegalArgumentException("mode and retainUntil go together: " + mode + ", " + retainUntil);
        }
    }

    public boolean isNone() {
        return mode == null && !legalHold;
    }
}
