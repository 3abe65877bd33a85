package io.shardvault.s3;

/**
 * The outcome of a CopyObject.
 *
 * @param result the new version
 * @param sourceVersionId the source version copied, or {@code null} in an unversioned bucket
 */
public record CopyResult(WriteResult result, String sourceVersionId) {
}
