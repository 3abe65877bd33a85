package io.shardvault.coordinator.catalog;

import io.shardvault.common.ErrorCode;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A bucket and one version of one of its keys, read together ({@link Catalog#bucketVersion}): what a GET or
 * HEAD checks before its first byte, the bucket's owner and the version, in one catalog read. A version
 * that is not there does not fail the read: the reader still learns the bucket, whose owner decides whether
 * the caller may learn that it is missing.
 *
 * @param bucket the bucket
 * @param version the version, when the read found one
 * @param error why it found none, the code {@link Catalog#getObjectVersion} fails with
 * @param errorMessage the error's message ("" with a version)
 */
public record BucketVersion(Bucket bucket, Optional<ObjectVersion> version, Optional<ErrorCode> error,
                            String errorMessage) {
    public BucketVersion {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(errorMessage, "errorMessage");
        if (version.isPresent() == error.isPresent()) {
            throw new IllegalArgumentException("a bucket version is a version or an error");
        }
    }

    /** The version as {@link Catalog#getObjectVersion} answers it: found, or failed with the same typed error. */
    public CompletableFuture<ObjectVersion> answer() {
        return version.map(CompletableFuture::completedFuture).orElseGet(() ->
                CompletableFuture.failedFuture(new CatalogException(error.get(), errorMessage)));
    }
}
