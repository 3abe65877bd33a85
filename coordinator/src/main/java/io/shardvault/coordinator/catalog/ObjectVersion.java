package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of one object, or a delete marker.
 *
 * <p>Version ids are 16 lower-case hex digits that sort newest first (they encode the Raft log
 * index that created the version, inverted), or {@code "null"} for the version written while
 * versioning was not enabled.
 *
 * @param bucket the bucket name
 * @param key the object key
 * @param versionId its version id
 * @param deleteMarker whether this is a delete marker (no data, no metadata)
 * @param latest whether it is the key's newest version
 * @param size the object's length in bytes (0 for a delete marker)
 * @param etag the ETag without quotes ({@code md5hex}, or {@code md5hex-N} for N parts)
 * @param lastModified the leader's time when the version was committed
 * @param metadata content type, system and user metadata, checksums
 * @param parts the data: one part 0 for a simple object, the parts in order for a multipart
 *     object, none for a delete marker or an empty object written without a file
 * @param retention its Object Lock retention, if any
 * @param legalHold whether an Object Lock legal hold is on
 */
public record ObjectVersion(String bucket, String key, String versionId, boolean deleteMarker, boolean latest,
                            long size, String etag, Instant lastModified, ObjectMetadata metadata,
                            List<FilePart> parts, Optional<Retention> retention, boolean legalHold) {
    /** The version id of the version written while versioning was not enabled. */
    public static final String NULL_VERSION_ID = "null";

    public ObjectVersion {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(versionId, "versionId");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(lastModified, "lastModified");
        Objects.requireNonNull(metadata, "metadata");
        parts = List.copyOf(parts);
        Objects.requireNonNull(retention, "retention");
    }

    /** Whether this is the {@code null} version. */
    public boolean isNullVersion() {
        return NULL_VERSION_ID.equals(versionId);
    }
}
