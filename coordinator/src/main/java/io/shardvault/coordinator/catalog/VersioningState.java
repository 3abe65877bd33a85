package io.shardvault.coordinator.catalog;

/**
 * A bucket's versioning state. A bucket starts {@link #UNVERSIONED}; once {@link #ENABLED} it can
 * only move between {@link #ENABLED} and {@link #SUSPENDED}. While not enabled, a put replaces the
 * key's {@code null} version and a delete removes it (and, when {@link #SUSPENDED}, leaves a
 * {@code null} delete marker).
 */
public enum VersioningState {
    UNVERSIONED,
    ENABLED,
    SUSPENDED
}
