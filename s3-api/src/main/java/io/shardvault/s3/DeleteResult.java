package io.shardvault.s3;

/**
 * The outcome of deleting one key or version.
 *
 * @param key the key
 * @param versionId the version removed, or the new delete marker's version id; {@code null} when
 *     unversioned
 * @param deleteMarker whether a delete marker was created (or removed, when a marker's version was named)
 */
public record DeleteResult(String key, String versionId, boolean deleteMarker) {
}
