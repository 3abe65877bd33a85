package io.shardvault.s3;

import java.time.Instant;
import java.util.Objects;

/**
 * The source of a CopyObject or UploadPartCopy, with its {@code x-amz-copy-source-if-*} conditions.
 *
 * @param bucket the source bucket
 * @param key the source key
 * @param versionId the source version, or {@code null} for the current one
 * @param ifMatch ETag the source must have, or {@code null}
 * @param ifNoneMatch ETag the source must not have, or {@code null}
 * @param ifModifiedSince or {@code null}
 * @param ifUnmodifiedSince or {@code null}
 */
public record CopySource(String bucket, String key, String versionId, String ifMatch, String ifNoneMatch,
                         Instant ifModifiedSince, Instant ifUnmodifiedSince) {
    public CopySource {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
    }

    /**
     * Checks the source conditions against the resolved source version, as S3 does (If-Match with
     * If-Unmodified-Since: If-Match wins; If-None-Match with If-Modified-Since: If-None-Match wins).
     * Stores call this with the version they resolved.
     *
     * @throws ObjectStoreException {@code PRECONDITION_FAILED} when a condition does not hold
     */
    public void check(ObjectInfo source) throws ObjectStoreException {
        boolean ok = true;
        if (ifMatch != null) {
            ok = Etags.matches(ifMatch, source.etag());
        } else if (ifUnmodifiedSince != null && source.lastModified().isAfter(ifUnmodifiedSince)) {
            ok = false;
        }
        if (ok && ifNoneMatch != null) {
            ok = !Etags.matches(ifNoneMatch, source.etag());
        } else if (ok && ifModifiedSince != null && !source.lastModified().isAfter(ifModifiedSince)) {
            ok = false;
        }
        if (!ok) {
            throw new ObjectStoreException(io.shardvault.common.ErrorCode.PRECONDITION_FAILED,
                    "At least one of the pre-conditions you specified did not hold");
        }
    }
}
