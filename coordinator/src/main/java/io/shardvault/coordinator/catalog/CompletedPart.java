package io.shardvault.coordinator.catalog;

import java.util.Objects;

/** One entry of a CompleteMultipartUpload request: a part number and the ETag the client saw. */
public record CompletedPart(int partNumber, String etag) {
    public CompletedPart {
        Objects.requireNonNull(etag, "etag");
    }
}
