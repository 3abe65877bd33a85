package io.shardvault.s3;

import java.time.Instant;
import java.util.Objects;

/**
 * One object version's metadata as HEAD and GET answer it.
 *
 * @param key the key
 * @param versionId the version id, or {@code null} in a bucket that never had versioning
 * @param size the byte count
 * @param etag the ETag without quotes: hex MD5, or {@code md5-of-md5s-N} for multipart
 * @param lastModified when the version was written
 * @param metadata what the client set
 * @param checksum the stored checksum, or {@code null}
 * @param partsCount the number of parts of a multipart object, 0 for a simple one
 * @param lock the Object Lock state, {@link ObjectLock#NONE} when none
 * @param deleteMarker whether this version is a delete marker
 */
public record ObjectInfo(String key, String versionId, long size, String etag, Instant lastModified,
                         ObjectMetadata metadata, Checksum checksum, int partsCount, ObjectLock lock,
                         boolean deleteMarker) {
    public ObjectInfo {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(lastModified, "lastModified");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(lock, "lock");
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0: " + size);
        }
    }
}
