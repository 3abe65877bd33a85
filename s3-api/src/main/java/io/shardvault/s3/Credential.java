package io.shardvault.s3;

import java.util.Objects;

/**
 * An access key as the catalog stores it.
 *
 * @param accessKeyId the public id (the {@code Credential=} of a signature)
 * @param secretKey the shared secret SigV4 signing keys derive from
 * @param enabled a disabled key is refused with {@code AccessDenied}
 * @param owner the canonical id of the key's owner (its account)
 * @param scope the bucket and read-only limits of the key
 */
public record Credential(String accessKeyId, String secretKey, boolean enabled, String owner, AccessScope scope) {
    public Credential {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(scope, "scope");
    }

    /** A key limited by ownership only. */
    public Credential(String accessKeyId, String secretKey, boolean enabled, String owner) {
        this(accessKeyId, secretKey, enabled, owner, AccessScope.FULL);
    }

    @Override
    public String toString() {
        return "Credential[" + accessKeyId + ", enabled=" + enabled + ", owner=" + owner + ", scope=" + scope + "]";
    }
}
