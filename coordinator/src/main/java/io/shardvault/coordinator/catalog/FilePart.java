package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * One piece of an object's data: the single file of a simple object ({@code partNumber} 0), or one
 * part of a completed multipart upload (part numbers as the client numbered them).
 *
 * @param partNumber 0 for a simple object, 1..10000 for a multipart part
 * @param etag the part's ETag (the file's MD5 in hex, without quotes)
 * @param file where its bytes are
 */
public record FilePart(int partNumber, String etag, FileRef file) {
    public FilePart {
        if (partNumber < 0 || partNumber > 10_000) {
            throw new IllegalArgumentException("partNumber must be in [0, 10000]: " + partNumber);
        }
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(file, "file");
    }
}
