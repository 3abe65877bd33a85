package io.shardvault.s3;

/** CopyObject's {@code x-amz-metadata-directive}. */
public enum MetadataDirective {
    /** Keep the source's metadata (the default). */
    COPY,
    /** Use the request's metadata. */
    REPLACE
}
