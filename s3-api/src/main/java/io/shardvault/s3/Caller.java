package io.shardvault.s3;

import java.util.Objects;

/**
 * The authenticated principal of one request: the access key that signed it and the owner that key
 * belongs to. The store uses the owner for bucket ownership and listings, and the key for
 * permissions (for example who may bypass GOVERNANCE retention, issue #9).
 *
 * <p>An unsigned request (no Authorization header, no presigned query) is {@link #ANONYMOUS}: no key, and
 * an owner no bucket has. Stores let it in only where a canned ACL grants everyone ({@link CannedAcl}).
 *
 * @param accessKeyId the access key id that signed the request (empty for {@link #ANONYMOUS})
 * @param owner the canonical id of the key's owner; buckets belong to owners, not keys (empty for
 *     {@link #ANONYMOUS})
 * @param scope the key's bucket and read-only limits, which the S3 server enforces before any store call
 */
public record Caller(String accessKeyId, String owner, AccessScope scope) {
    /** The caller of an unsigned request. */
    public static final Caller ANONYMOUS = new Caller("", "");

    /** A caller limited by ownership only. */
    public Caller(String accessKeyId, String owner) {
        this(accessKeyId, owner, AccessScope.FULL);
    }

    public Caller {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(scope, "scope");
        if (accessKeyId.isEmpty() != owner.isEmpty()) {
            throw new IllegalArgumentException("a caller has both a key and an owner, or neither (anonymous)");
        }
    }

    /** Whether the request was unsigned. */
    public boolean isAnonymous() {
        return accessKeyId.isEmpty();
    }
}
