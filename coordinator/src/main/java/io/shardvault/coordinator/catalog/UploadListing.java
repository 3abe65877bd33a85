package io.shardvault.coordinator.catalog;

import java.util.List;

/**
 * One page of a ListMultipartUploads answer: uploads by key, then by upload id (creation order).
 *
 * @param uploads the uploads
 * @param truncated whether more follow
 * @param nextKeyMarker the key to resume at
 * @param nextUploadIdMarker the upload id to resume after
 */
public record UploadListing(List<MultipartUpload> uploads, boolean truncated, String nextKeyMarker,
                            String nextUploadIdMarker) {
    public UploadListing {
        uploads = List.copyOf(uploads);
    }
}
