package io.shardvault.coordinator.catalog;

import java.util.List;

/**
 * One page of a ListParts answer.
 *
 * @param upload the upload
 * @param parts parts in part-number order, after the marker
 * @param truncated whether more parts follow
 * @param nextPartNumberMarker the marker for the next page (0 when not truncated)
 */
public record PartListing(MultipartUpload upload, List<UploadedPart> parts, boolean truncated,
                          int nextPartNumberMarker) {
    public PartListing {
        parts = List.copyOf(parts);
    }
}
