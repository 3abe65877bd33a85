package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Optional;

/**
 * One page of a ListObjects answer.
 *
 * @param objects the current versions, in key order
 * @param commonPrefixes the rolled-up prefixes, in order (they count towards max-keys)
 * @param truncated whether more results follow this page
 * @param nextContinuationToken the token for the next page (v2), when truncated
 * @param nextMarker the last key or common prefix of this page (v1's NextMarker), when truncated
 */
public record ObjectListing(List<ObjectVersion> objects, List<String> commonPrefixes, boolean truncated,
                            Optional<String> nextContinuationToken, Optional<String> nextMarker) {
    public ObjectListing {
        objects = List.copyOf(objects);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
