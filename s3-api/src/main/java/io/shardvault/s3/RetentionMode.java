package io.shardvault.s3;

/** Object Lock retention modes (issue #9). */
public enum RetentionMode {
    /** Shortened or removed only with {@code x-amz-bypass-governance-retention} by a key allowed to. */
    GOVERNANCE,
    /** Never shortened or removed, by anyone, until its date. */
    COMPLIANCE
}
