package io.shardvault.s3;

import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;

/**
 * A typed failure of an {@link ObjectStore} operation. The S3 server maps {@link #code()} to an S3
 * error code and HTTP status; the message goes into the error body, so keep it free of secrets.
 *
 * <table>
 *   <caption>Mapping at the S3 edge</caption>
 *   <tr><th>ErrorCode</th><th>S3 code</th><th>status</th></tr>
 *   <tr><td>NO_SUCH_BUCKET</td><td>NoSuchBucket</td><td>404</td></tr>
 *   <tr><td>NO_SUCH_KEY</td><td>NoSuchKey</td><td>404</td></tr>
 *   <tr><td>NO_SUCH_VERSION</td><td>NoSuchVersion</td><td>404</td></tr>
 *   <tr><td>NO_SUCH_UPLOAD</td><td>NoSuchUpload</td><td>404</td></tr>
 *   <tr><td>BUCKET_ALREADY_EXISTS</td><td>BucketAlreadyExists</td><td>409</td></tr>
 *   <tr><td>BUCKET_ALREADY_OWNED_BY_YOU</td><td>BucketAlreadyOwnedByYou</td><td>409</td></tr>
 *   <tr><td>BUCKET_NOT_EMPTY</td><td>BucketNotEmpty</td><td>409</td></tr>
 *   <tr><td>CONFLICT</td><td>OperationAborted</td><td>409</td></tr>
 *   <tr><td>PRECONDITION_FAILED</td><td>PreconditionFailed</td><td>412</td></tr>
 *   <tr><td>INVALID_PART</td><td>InvalidPart</td><td>400</td></tr>
 *   <tr><td>INVALID_PART_ORDER</td><td>InvalidPartOrder</td><td>400</td></tr>
 *   <tr><td>ENTITY_TOO_SMALL</td><td>EntityTooSmall</td><td>400</td></tr>
 *   <tr><td>INVALID_ARGUMENT, BAD_REQUEST</td><td>InvalidArgument</td><td>400</td></tr>
 *   <tr><td>CHECKSUM_MISMATCH</td><td>BadDigest</td><td>400</td></tr>
 *   <tr><td>ACCESS_DENIED</td><td>AccessDenied</td><td>403</td></tr>
 *   <tr><td>INVALID_ACCESS_KEY</td><td>InvalidAccessKeyId</td><td>403</td></tr>
 *   <tr><td>NOT_IMPLEMENTED, UNKNOWN_OP</td><td>NotImplemented</td><td>501</td></tr>
 *   <tr><td>BUSY</td><td>SlowDown</td><td>503</td></tr>
 *   <tr><td>NO_SPACE, STASH_FULL</td><td>ServiceUnavailable (insufficient capacity)</td><td>503</td></tr>
 *   <tr><td>UNAVAILABLE, NOT_LEADER, SHUTTING_DOWN, UNREACHABLE, TIMEOUT</td><td>ServiceUnavailable</td><td>503</td></tr>
 *   <tr><td>anything else</td><td>InternalError</td><td>500</td></tr>
 * </table>
 *
 * <p>A failure whose cause chain holds an exception thrown by a {@link BodySource} (a bad digest, a
 * truncated or badly signed body) is answered with that body error instead: stores should fail
 * with the body's exception, or wrap it as the cause.
 */
public class ObjectStoreException extends ShardvaultException {
    private static final long serialVersionUID = 1L;

    public ObjectStoreException(ErrorCode code, String message) {
        super(code, message);
    }

    public ObjectStoreException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
