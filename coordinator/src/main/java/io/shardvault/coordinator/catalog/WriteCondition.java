package io.shardvault.coordinator.catalog;

import java.util.Objects;

/**
 * A condition a put checks against the key's current version, atomically with the write. Two
 * conflicting conditional writes are ordered by the log: the second one fails cleanly with
 * {@code PRECONDITION_FAILED}.
 *
 * @param kind what is checked
 * @param etag the ETag that must match, for {@link Kind#IF_MATCH} (without quotes); empty otherwise
 */
public record WriteCondition(Kind kind, String etag) {
    /** Kinds of condition. */
    public enum Kind {
        /** No condition. */
        NONE,
        /** {@code If-None-Match: *}: fails when the key has a current version. */
        IF_NONE_MATCH_ANY,
        /** {@code If-Match: etag}: fails unless the current version has that ETag. */
        IF_MATCH
    }

    public static final WriteCondition NONE = new WriteCondition(Kind.NONE, "");
    public static final WriteCondition IF_NONE_MATCH_ANY = new WriteCondition(Kind.IF_NONE_MATCH_ANY, "");

    public WriteCondition {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(etag, "etag");
        if ((kind == Kind.IF_MATCH) == etag.isEmpty()) {
            throw new IllegalArgumentException("an etag goes with IF_MATCH and only with it: " + kind + " " + etag);
        }
    }

    public static WriteCondition ifMatch(String etag) {
        return new WriteCondition(Kind.IF_MATCH, etag);
    }
}
