package io.shardvault.s3;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a ListObjectVersions page: a version or a delete marker (issue #9).
 *
 * @param key the key
 * @param versionId its id; {@code "null"} for the null version (listings always name one)
 * @param latest whether it is the key's newest version
 * @param deleteMarker whether it is a delete marker (size and ETag are then meaningless)
 * @param size the byte count
 * @param etag the ETag without quotes
 * @param lastModified when it was written
 * @param owner the owner's canonical id, or {@code null}
 */
public record VersionSummary(String key, String versionId, boolean latest, boolean deleteMarker, long size,
                             String etag, Instant lastModified, String owner) {
    public VersionSummary {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(versionId, "versionId");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(lastModified, "lastModified");
    }
}
