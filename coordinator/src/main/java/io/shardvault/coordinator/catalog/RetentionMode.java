package io.shardvault.coordinator.catalog;

/**
 * Object Lock retention modes. A {@link #COMPLIANCE} retention can never be shortened or removed,
 * and its version cannot be deleted by anyone before the retain-until date; a {@link #GOVERNANCE}
 * one yields to a request that bypasses governance retention with a key allowed to.
 */
public enum RetentionMode {
    GOVERNANCE,
    COMPLIANCE
}
