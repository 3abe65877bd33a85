package io.shardvault.s3;

import java.util.List;

/**
 * One page of ListObjectVersions (issue #9): keys in UTF-8 binary order, each key's versions newest first.
 *
 * @param versions versions and delete markers
 * @param commonPrefixes the rolled-up prefixes
 * @param truncated whether more entries follow
 * @param nextKeyMarker when truncated, the key or common prefix to resume after; otherwise {@code null}
 * @param nextVersionIdMarker when truncated on a version, that version's id; otherwise {@code null}
 */
public record VersionsPage(List<VersionSummary> versions, List<String> commonPrefixes, boolean truncated,
                           String nextKeyMarker, String nextVersionIdMarker) {
    public VersionsPage {
        versions = List.copyOf(versions);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
