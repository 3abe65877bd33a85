package io.shardvault.s3.internal;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardvaultException;
import io.shardvault.s3.ObjectStoreException;
import java.util.concurrent.RejectedExecutionException;

/** Maps any failure to the S3 error it is answered with (the table on {@link ObjectStoreException}). */
public final class ErrorMapper {
    private ErrorMapper() {
    }

    public static S3Error toS3Error(Throwable failure) {
        Throwable t = ShardvaultException.unwrap(failure);
        // A body error (bad digest, truncated body) wins over whatever the store wrapped it in.
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof S3Error s3) {
                return s3;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        if (t instanceof ObjectStoreException ose) {
            return fromCode(ose.code(), ose.getMessage());
        }
        if (t instanceof RejectedExecutionException) {
            return fromCode(ErrorCode.BUSY, "too many requests");
        }
        return S3Error.internal(t.getClass().getSimpleName());
    }

    public static S3Error fromCode(ErrorCode code, String message) {
        String m = message == null ? "" : message;
        switch (code) {
            case NO_SUCH_BUCKET:
                return new S3Error("NoSuchBucket", HttpResponseStatus.NOT_FOUND, "The specified bucket does not exist");
            case NO_SUCH_KEY:
            case NOT_FOUND:
                return new S3Error("NoSuchKey", HttpResponseStatus.NOT_FOUND, "The specified key does not exist.");
            case NO_SUCH_VERSION:
                return new S3Error("NoSuchVersion", HttpResponseStatus.NOT_FOUND,
                        "The specified version does not exist.");
            case NO_SUCH_UPLOAD:
                return new S3Error("NoSuchUpload", HttpResponseStatus.NOT_FOUND,
                        "The specified multipart upload does not exist. The upload ID might be invalid, or the "
                                + "multipart upload might have been aborted or completed.");
            case BUCKET_ALREADY_EXISTS:
                return new S3Error("BucketAlreadyExists", HttpResponseStatus.CONFLICT,
                        "The requested bucket name is not available.");
            case BUCKET_ALREADY_OWNED_BY_YOU:
                return new S3Error("BucketAlreadyOwnedByYou", HttpResponseStatus.CONFLICT,
                        "Your previous request to create the named bucket succeeded and you already own it.");
            case BUCKET_NOT_EMPTY:
                return new S3Error("BucketNotEmpty", HttpResponseStatus.CONFLICT,
                        "The bucket you tried to delete is not empty");
            case CONFLICT:
                return new S3Error("OperationAborted", HttpResponseStatus.CONFLICT,
                        "A conflicting conditional operation is currently in progress against this resource.");
            case PRECONDITION_FAILED:
                return new S3Error("PreconditionFailed", HttpResponseStatus.PRECONDITION_FAILED,
                        "At least one of the pre-conditions you specified did not hold");
            case INVALID_PART:
                return S3Error.badRequest("InvalidPart", m.isEmpty() ? "One or more of the specified parts could "
                        + "not be found or the specified entity tag might not have matched the part's entity tag." : m);
            case INVALID_PART_ORDER:
                return S3Error.badRequest("InvalidPartOrder", "The list of parts was not in ascending order.");
            case ENTITY_TOO_SMALL:
                return S3Error.badRequest("EntityTooSmall",
                        "Your proposed upload is smaller than the minimum allowed object size.");
            case INVALID_ARGUMENT:
            case BAD_REQUEST:
                return S3Error.badRequest("InvalidArgument", m);
            case CHECKSUM_MISMATCH:
                return S3Error.badDigest(m.isEmpty() ? "The checksum you specified did not match what we received." : m);
            case ACCESS_DENIED:
                return S3Error.accessDenied(m.isEmpty() ? "Access Denied" : m);
            case QUOTA_EXCEEDED:
                // MinIO's name for it; AWS has no bucket quotas. 403: retrying does not help, freeing space does.
                return new S3Error("QuotaExceeded", HttpResponseStatus.FORBIDDEN,
                        m.isEmpty() ? "Bucket quota exceeded" : m);
            case INVALID_ACCESS_KEY:
                return new S3Error("InvalidAccessKeyId", HttpResponseStatus.FORBIDDEN,
                        "The AWS Access Key Id you provided does not exist in our records.");
            case NOT_IMPLEMENTED:
            case UNKNOWN_OP:
                return new S3Error("NotImplemented", HttpResponseStatus.NOT_IMPLEMENTED,
                        m.isEmpty() ? "Not implemented" : m);
            case BUSY:
                return new S3Error("SlowDown", HttpResponseStatus.SERVICE_UNAVAILABLE, "Please reduce your request rate.");
            case NO_SPACE:
            case STASH_FULL:
                return new S3Error("ServiceUnavailable", HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "Insufficient capacity; please retry later.");
            case UNAVAILABLE:
            case NOT_LEADER:
            case SHUTTING_DOWN:
            case UNREACHABLE:
            case TIMEOUT:
            case CONNECTION_CLOSED:
                return new S3Error("ServiceUnavailable", HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "Service is unable to handle request.");
            default:
                return S3Error.internal(code.name());
        }
    }
}
