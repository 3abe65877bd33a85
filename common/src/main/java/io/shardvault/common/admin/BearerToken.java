package io.shardvault.common.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * The bearer token an admin port requires ({@code Authorization: Bearer TOKEN}). Only its SHA-256
 * is kept, and a presented token is compared through its own digest with
 * {@link MessageDigest#isEqual}, so the time an answer takes says nothing about how much of a guess
 * was right, not even its length. {@link #toString()} never shows it.
 *
 * <p>Immutable and thread-safe.
 */
public final class BearerToken {
    private static final String SCHEME = "bearer ";

    private final byte[] digest;

    private BearerToken(byte[] digest) {
        this.digest = digest;
    }

    /**
     * The token {@code value}.
     *
     * @throws IllegalArgumentException when it is empty or holds whitespace (a header cannot carry it)
     */
    public static BearerToken of(String value) {
        if (value == null || value.isEmpty() || value.chars().anyMatch(Character::isWhitespace)) {
            // The value itself is a secret: not in the message.
            throw new IllegalArgumentException("a bearer token must be non-empty, without whitespace");
        }
        return new BearerToken(sha256(value));
    }

    /** Whether an {@code Authorization} header value (null when absent) carries this token. */
    public boolean admits(String authorization) {
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)) {
            return false;
        }
        return MessageDigest.isEqual(digest, sha256(authorization.substring(SCHEME.length()).strip()));
    }

    @Override
    public String toString() {
        return "BearerToken(not shown)";
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
