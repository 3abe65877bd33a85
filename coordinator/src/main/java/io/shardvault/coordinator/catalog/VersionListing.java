package io.shardvault.coordinator.catalog;

import java.util.List;

/**
 * One page of a ListObjectVersions answer.
 *
 * @param versions versions and delete markers, keys in order, each key's versions newest first
 * @param commonPrefixes the rolled-up prefixes
 * @param truncated whether more results follow
 * @param nextKeyMarker the key (or common prefix) to resume after, when truncated ("" otherwise)
 * @param nextVersionIdMarker the version to resume after, when truncated and the page ended on a version
 */
public record VersionListing(List<ObjectVersion> versions, List<String> commonPrefixes, boolean truncated,
                             String nextKeyMarker, String nextVersionIdMarker) {
    public VersionListing {
        versions = List.copyOf(versions);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
