package io.shardvault.s3;

import java.util.List;

/**
 * One page of a listing, in UTF-8 binary order, objects and prefixes merged in that order.
 *
 * @param objects the keys
 * @param commonPrefixes the rolled-up prefixes (each ends with the delimiter)
 * @param truncated whether more entries follow
 * @param nextAfter when truncated, the last key or common prefix of this page (the next page's
 *     {@code after}); otherwise {@code null}
 */
public record ListObjectsPage(List<ObjectSummary> objects, List<String> commonPrefixes, boolean truncated,
                              String nextAfter) {
    public ListObjectsPage {
        objects = List.copyOf(objects);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
