package io.shardvault.s3.internal;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;
import java.util.TreeMap;

/**
 * An S3 error answer: the code, the HTTP status and the message of the XML error body. Raised
 * anywhere in the request pipeline (parsing, auth, body decoding, operations) and turned into a
 * response by {@link Exchange#respondError}. Immutable apart from extra fields added while building.
 */
public final class S3Error extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final transient HttpResponseStatus status;
    private final TreeMap<String, String> extra = new TreeMap<>();

    public S3Error(String code, HttpResponseStatus status, String message) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public HttpResponseStatus status() {
        return status;
    }

    /** Extra elements of the error body (for example StringToSign, ArgumentName). */
    public Map<String, String> extra() {
        return extra;
    }

    public S3Error with(String element, String value) {
        extra.put(element, value);
        return this;
    }

    public static S3Error badRequest(String code, String message) {
        return new S3Error(code, HttpResponseStatus.BAD_REQUEST, message);
    }

    public static S3Error invalidArgument(String message, String name, String value) {
        S3Error e = badRequest("InvalidArgument", message);
        if (name != null) {
            e.with("ArgumentName", name);
        }
        if (value != null) {
            e.with("ArgumentValue", value);
        }
        return e;
    }

    public static S3Error accessDenied(String message) {
        return new S3Error("AccessDenied", HttpResponseStatus.FORBIDDEN, message);
    }

    public static S3Error malformedXml() {
        return badRequest("MalformedXML",
                "The XML you provided was not well-formed or did not validate against our published schema.");
    }

    public static S3Error notImplemented(String what) {
        return new S3Error("NotImplemented", HttpResponseStatus.NOT_IMPLEMENTED,
                "A header or query you provided implies functionality that is not implemented: " + what);
    }

    /** A body larger than {@code max} bytes, declared or found so while it streams. */
    public static S3Error entityTooLarge(long max) {
        return badRequest("EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.")
                .with("MaxSizeAllowed", Long.toString(max));
    }

    public static S3Error incompleteBody(String message) {
        return badRequest("IncompleteBody", message);
    }

    public static S3Error badDigest(String message) {
        return badRequest("BadDigest", message);
    }

    public static S3Error internal(String message) {
        return new S3Error("InternalError", HttpResponseStatus.INTERNAL_SERVER_ERROR,
                "We encountered an internal error. Please try again. (" + message + ")");
    }
}
