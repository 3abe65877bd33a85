package io.shardvault.coordinator.catalog;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A request to commit a new version of a simple object whose bytes are already stored.
 *
 * @param bucket the bucket name
 * @param key the object key (non-empty UTF-8, at most 1024 bytes, no U+0000)
 * @param size the object's length
 * @param etag its ETag without quotes
 * @param metadata what the client said about it
 * @param parts its data: one part 0, or none for an empty object
 * @param condition a condition on the current version
 * @param retention an Object Lock retention to set on the new version (the bucket's default applies when empty
 *     and the bucket has one)
 * @param legalHold whether to put a legal hold on it
 */
public record PutObjectVersion(String bucket, String key, long size, String etag, ObjectMetadata metadata,
                               List<FilePart> parts, WriteCondition condition, Optional<Retention> retention,
                               boolean legalHold) {
    public PutObjectVersion {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(metadata, "metadata");
        parts = List.copyOf(parts);
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(retention, "retention");
    }

    /** A plain put of one file, no condition, no lock. */
    public static PutObjectVersion of(String bucket, String key, String etag, ObjectMetadata metadata, FileRef file) {
        return new PutObjectVersion(bucket, key, file.size(), etag, metadata, List.of(new FilePart(0, etag, file)),
                WriteCondition.NONE, Optional.empty(), false);
    }
}
