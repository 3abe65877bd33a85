package io.shardvault.coordinator.store;

import io.shardvault.coordinator.catalog.MultipartUpload;
import io.shardvault.s3.ListUploadsRequest;
import io.shardvault.s3.UploadInfo;
import io.shardvault.s3.UploadsPage;

import java.util.ArrayList;
import java.util.List;

/**
 * One page of ListMultipartUploads with a delimiter, filled from the catalog's uploads in key order:
 * keys are rolled up into common prefixes, each prefix counting once towards max-uploads, and a page
 * resumed after a prefix (key-marker) skipping it. Not thread-safe: one listing's.
 */
final class UploadRollup {
    private final ListUploadsRequest request;
    private final String owner;
    private final List<UploadInfo> uploads = new ArrayList<>();
    private final List<String> prefixes = new ArrayList<>();
    private String lastKey;
    private String lastUploadId;

    UploadRollup(ListUploadsRequest request, String owner) {
        this.request = request;
        this.owner = owner;
    }

    /** Adds one upload (or its prefix); false when the page is full and {@code u} is left for the next. */
    boolean add(MultipartUpload u) {
        String delimiter = request.delimiter();
        int i = u.key().indexOf(delimiter, request.prefix().length());
        String prefix = i < 0 ? null : u.key().substring(0, i + delimiter.length());
        if (prefix != null && (prefix.equals(lastKey)
                || request.keyMarker() != null && request.keyMarker().startsWith(prefix))) {
            return true;
        }
        if (uploads.size() + prefixes.size() >= request.maxUploads()) {
            return false;
        }
        if (prefix != null) {
            prefixes.add(prefix);
            lastKey = prefix;
            lastUploadId = null;
        } else {
            uploads.add(CatalogMapper.uploadInfo(u, owner));
            lastKey = u.key();
            lastUploadId = u.uploadId();
        }
        return true;
    }

    UploadsPage page(boolean truncated) {
        return new UploadsPage(uploads, prefixes, truncated, truncated ? lastKey : null,
                truncated ? lastUploadId : null);
    }
}
