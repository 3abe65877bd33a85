package io.shardvault.s3;

import java.util.List;

/**
 * One page of ListMultipartUploads.
 *
 * @param uploads the uploads
 * @param commonPrefixes rolled-up prefixes
 * @param truncated whether more follow
 * @param nextKeyMarker when truncated, the last key of the page
 * @param nextUploadIdMarker when truncated, the last upload id of the page
 */
public record UploadsPage(List<UploadInfo> uploads, List<String> commonPrefixes, boolean truncated,
                          String nextKeyMarker, String nextUploadIdMarker) {
    public UploadsPage {
        uploads = List.copyOf(uploads);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
