package io.shardvault.common;

/**
 * The stable error codes that cross process boundaries in error frames. Each is mapped to an S3
 * error and HTTP status only at the S3 edge.
 *
 * <p>The numeric {@link #wire()} values are part of the protocol: never renumber or reuse one.
 * A peer that receives a code it does not know (a newer peer) sees {@link #UNKNOWN}.
 */
public enum ErrorCode {
    /** A code this build does not know, or an error with no better code. */
    UNKNOWN(0),
    /** A bug or unexpected failure on the answering side; the message says more. */
    INTERNAL(1),
    /** The caller gave up waiting for the answer. */
    TIMEOUT(2),
    /** The connection closed with the request unanswered; the request may or may not have run. */
    CONNECTION_CLOSED(3),
    /** The peer could not be reached. */
    UNREACHABLE(4),
    /** The server is shutting down and takes no new requests. */
    SHUTTING_DOWN(5),
    /** The server's request queue is full: retry later, or elsewhere. */
    BUSY(6),
    /** The server does not serve this op code. */
    UNKNOWN_OP(7),
    /** The request is malformed: a missing field, a bad value. */
    BAD_REQUEST(8),
    /** The named item does not exist. */
    NOT_FOUND(9),
    /** Stored bytes failed their checksum: never served as data. */
    CORRUPT(10),
    /** Bytes arrived with a checksum that does not match them. */
    CHECKSUM_MISMATCH(11),
    /** The stash has no room within its byte budget; write durably to the pods instead. */
    STASH_FULL(12),
    /** A disk or tome ran out of space. */
    NO_SPACE(13),
    /** The node may not take this request now (a drained pod, a follower): go elsewhere. */
    UNAVAILABLE(14),
    /** The bucket does not exist. */
    NO_SUCH_BUCKET(15),
    /** The key has no current version (absent, or its latest version is a delete marker). */
    NO_SUCH_KEY(16),
    /** The named version does not exist. */
    NO_SUCH_VERSION(17),
    /** A bucket of that name exists and belongs to someone else. */
    BUCKET_ALREADY_EXISTS(18),
    /** A bucket of that name exists and belongs to the caller. */
    BUCKET_ALREADY_OWNED_BY_YOU(19),
    /** The bucket still holds objects, versions or uploads. */
    BUCKET_NOT_EMPTY(20),
    /** A condition (If-Match, If-None-Match, ...) does not hold. */
    PRECONDITION_FAILED(21),
    /** The multipart upload does not exist (never created, completed or aborted). */
    NO_SUCH_UPLOAD(22),
    /** A listed part was not uploaded, or its ETag differs. */
    INVALID_PART(23),
    /** Parts are not listed in ascending order. */
    INVALID_PART_ORDER(24),
    /** Not allowed: a locked version, a disabled key, a missing permission. */
    ACCESS_DENIED(25),
    /** The access key id is unknown. */
    INVALID_ACCESS_KEY(26),
    /** A concurrent change won; retrying may succeed. */
    CONFLICT(27),
    /** This catalog peer is not the leader; the message names the leader when known. */
    NOT_LEADER(28),
    /** A part other than the last is smaller than the minimum part size. */
    ENTITY_TOO_SMALL(29),
    /** An argument is out of range or malformed (a bad max-keys, a bad retention date). */
    INVALID_ARGUMENT(30),
    /** The request is valid but the operation or option is not implemented. */
    NOT_IMPLEMENTED(31),
    /**
     * A pod refuses a buffered write it could not recover after a crash (it has no stash
     * assignment, the shard's slot is not assigned to it, or it has no stash): write the chunk
     * durably instead.
     */
    NOT_RECOVERABLE(32),
    /** The write would take its bucket past the bucket's quota (issue #24). */
    QUOTA_EXCEEDED(33);

    private static final ErrorCode[] BY_WIRE = new ErrorCode[64];

    static {
        for (ErrorCode code : values()) {
            if (BY_WIRE[code.wire] != null) {
                throw new ExceptionInInitializerError("duplicate wire code " + code.wire);
            }
            BY_WIRE[code.wire] = code;
        }
    }

    private final int wire;

    ErrorCode(int wire) {
        this.wire = wire;
    }

    /** The number sent on the wire. */
    public int wire() {
        return wire;
    }

    /** The code for a wire number; {@link #UNKNOWN} for a number this build does not know. */
    public static ErrorCode fromWire(int wire) {
        if (wire < 0 || wire >= BY_WIRE.length || BY_WIRE[wire] == null) {
            return UNKNOWN;
        }
        return BY_WIRE[wire];
    }
}
