package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * A ListObjectVersions query: every version and delete marker, keys in UTF-8 byte order and each
 * key's versions newest first.
 *
 * <p>The resume point is {@code (keyMarker, versionIdMarker)}: with an empty version-id marker,
 * listing starts after every version of {@code keyMarker}; otherwise after that version of it.
 * Common prefixes follow {@link ListObjectsQuery}'s rule: one sorting at or before the key marker
 * is not repeated.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with this
 * @param delimiter rolls keys up into common prefixes when non-empty
 * @param keyMarker resume after this key ("" for the start)
 * @param versionIdMarker resume after this version of {@code keyMarker} ("" for after all of them)
 * @param maxKeys at most this many versions and common prefixes together, in [0, 10000]
 */
public record ListVersionsQuery(String bucket, String prefix, String delimiter, String keyMarker,
                                String versionIdMarker, int maxKeys) {
    public ListVersionsQuery {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(delimiter, "delimiter");
        Objects.requireNonNull(keyMarker, "keyMarker");
        Objects.requireNonNull(versionIdMarker, "versionIdMarker");
        if (maxKeys < 0 || maxKeys > 10_000) {
            throw new IllegalArgumentException("maxKeys must be in [0, 10000]: " + maxKeys);
        }
        if (keyMarker.isEmpty() && !versionIdMarker.isEmpty()) {
            throw new IllegalArgumentException("a version-id marker needs a key marker");
        }
    }
}
