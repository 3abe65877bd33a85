package io.shardvault.s3.internal;

import org.slf4j.MDC;

/**
 * The log context of one S3 request: puts {@code requestId}, {@code bucket} and {@code key} (when
 * the request names them) into the SLF4J MDC of the current thread, and takes them out again on
 * {@link #close()}. Every line logged on that thread in between (the operation, the object store
 * call it makes synchronously) carries them as {@code key="value"} fields.
 *
 * <p>Not thread-safe: open and close on the same thread, in a try-with-resources block. Work the
 * store hands to other threads does not inherit the context.
 */
final class RequestLogContext implements AutoCloseable {
    static final String REQUEST_ID = "requestId";
    static final String BUCKET = "bucket";
    static final String KEY = "key";

    private RequestLogContext() {
    }

    /** Sets the context; {@code request} may be null before the request was parsed. */
    static RequestLogContext open(String requestId, S3Request request) {
        MDC.put(REQUEST_ID, requestId);
        if (request != null && request.bucket() != null && !request.bucket().isEmpty()) {
            MDC.put(BUCKET, request.bucket());
        }
        if (request != null && request.key() != null && !request.key().isEmpty()) {
            MDC.put(KEY, request.key());
        }
        return new RequestLogContext();
    }

    @Override
    public void close() {
        MDC.remove(REQUEST_ID);
        MDC.remove(BUCKET);
        MDC.remove(KEY);
    }
}
