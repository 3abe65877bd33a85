package io.shardvault.coordinator.catalog;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

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

    /** The bucket and the version found. */
    public static BucketVersion found(Bucket bucket, ObjectVersion version) {
        return new BucketVersion(bucket, Optional.of(version), Optional.empty(), "");
    }

    /** The bucket, and why no version was found: {@link Catalog#getObjectVersion}'s error. */
    public static BucketVersion missing(Bucket bucket, ErrorCode error, String message) {
        return new BucketVersion(bucket, Optional.empty(), Optional.of(error), message);
    }

    /**
     * The same pair in two reads, the bucket's and then the version's: what a catalog whose leader runs an
     * older build (a rolling upgrade) still answers. Not one view: the version may be of a bucket deleted and
     * created again between the two, as before the pair had its own read.
     */
    public static CompletableFuture<BucketVersion> readInTwo(Catalog catalog, String bucket, String key,
                                                             Optional<String> versionId) {
        return catalog.getBucket(bucket).thenCompose(b -> catalog.getObjectVersion(bucket, key, versionId)
                .handle((v, failure) -> {
                    if (failure == null) {
                        return found(b, v);
                    }
                    if (ShardvaultException.unwrap(failure) instanceof CatalogException e) {
                        return missing(b, e.code(), String.valueOf(e.getMessage()));
                    }
                    throw new CompletionException(ShardvaultException.unwrap(failure));
                }));
    }

    /** The version as {@link Catalog#getObjectVersion} answers it: found, or failed with the same typed error. */
    public CompletableFuture<ObjectVersion> answer() {
        return version.map(CompletableFuture::completedFuture).orElseGet(() ->
                CompletableFuture.failedFuture(new CatalogException(error.get(), errorMessage)));
    }
}
