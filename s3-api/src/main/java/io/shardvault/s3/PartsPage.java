package io.shardvault.s3;

import java.util.List;

/**
 * One page of ListParts.
 *
 * @param upload the upload
 * @param parts parts numbered after the marker, ascending
 * @param truncated whether more follow
 * @param nextPartNumberMarker the last part number of this page
 */
public record PartsPage(UploadInfo upload, List<PartInfo> parts, boolean truncated, int nextPartNumberMarker) {
    public PartsPage {
        parts = List.copyOf(parts);
    }
}
