package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A part recorded for a multipart upload.
 *
 * @param partNumber 1..10000
 * @param etag its ETag without quotes (the part's MD5 in hex)
 * @param file where its bytes are
 * @param lastModified the leader's time when it was recorded
 * @param checksums the part's additional checksum, algorithm (CRC32, CRC32C, CRC64NVME, SHA1, SHA256) to the
 *     base64 value of the part's bytes (empty when the upload has none): CompleteMultipartUpload combines them
 *     into the object's composite or full-object checksum without reading the bytes again
 */
public record UploadedPart(int partNumber, String etag, FileRef file, Instant lastModified,
                           Map<String, String> checksums) {
    public UploadedPart(int partNumber, String etag, FileRef file, Instant lastModified) {
        this(partNumber, etag, file, lastModified, Map.of());
    }

    public UploadedPart {
        if (partNumber < 1 || partNumber > 10_000) {
            throw new IllegalArgumentException("partNumber must be in [1, 10000]: " + partNumber);
        }
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(lastModified, "lastModified");
        checksums = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(checksums));
    }
}
