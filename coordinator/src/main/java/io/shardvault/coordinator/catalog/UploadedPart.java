package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * A part recorded for a multipart upload.
 *
 * @param partNumber 1..10000
 * @param etag its ETag without quotes (the part's MD5 in hex)
 * @param file where its bytes are
 * @param lastModified the leader's time when it was recorded
 */
public record UploadedPart(int partNumber, String etag, FileRef file, Instant lastModified) {
    public UploadedPart {
        if (partNumber < 1 || partNumber > 10_000) {
            throw new IllegalArgumentException("partNumber must be in [1, 10000]: " + partNumber);
        }
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(lastModified, "lastModified");
    }
}
