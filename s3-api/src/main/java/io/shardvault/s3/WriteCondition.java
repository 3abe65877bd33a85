package io.shardvault.s3;

/**
 * A conditional write (PutObject, CompleteMultipartUpload, CopyObject's destination), evaluated by
 * the store atomically with the commit; failing it is {@code PRECONDITION_FAILED} (or, for
 * {@code If-None-Match: *} racing another writer, {@code CONFLICT}).
 *
 * @param ifMatch the ETag (without quotes) the current version must have, or {@code null}
 * @param ifNoneMatchAny {@code If-None-Match: *}: the key must have no current version
 */
public record WriteCondition(String ifMatch, boolean ifNoneMatchAny) {
    public static final WriteCondition NONE = new WriteCondition(null, false);

    public boolean isNone() {
        return ifMatch == null && !ifNoneMatchAny;
    }
}
