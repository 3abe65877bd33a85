package io.shardvault.s3;

/**
 * Whether a checksum covers the object's bytes ({@code FULL_OBJECT}) or, for a multipart object,
 * is the checksum of the concatenated binary part checksums ({@code COMPOSITE}, shown with a
 * {@code -N} suffix).
 */
public enum ChecksumType {
    FULL_OBJECT,
    COMPOSITE
}
