package io.shardvault.s3;

import java.util.List;
import java.util.Objects;

/**
 * A CompleteMultipartUpload. The S3 layer has checked the list is non-empty and ascending; the store
 * checks every part exists with that ETag ({@code INVALID_PART}), every part but the last is at least
 * 5 MiB ({@code ENTITY_TOO_SMALL}), computes the ETag with {@link Etags#multipart} and the checksum
 * with {@link MultipartChecksums}, and compares that with {@code fullObjectChecksum} when given
 * ({@code CHECKSUM_MISMATCH}).
 *
 * @param bucket the bucket
 * @param key the key
 * @param uploadId the upload
 * @param parts the parts, ascending
 * @param condition conditional-write headers (If-Match, If-None-Match)
 * @param fullObjectChecksum an {@code x-amz-checksum-*} header sent with the completion, or {@code null}
 */
public record CompleteMultipartUploadRequest(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                             WriteCondition condition, Checksum fullObjectChecksum) {
    public CompleteMultipartUploadRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        parts = List.copyOf(parts);
        Objects.requireNonNull(condition, "condition");
    }
}
