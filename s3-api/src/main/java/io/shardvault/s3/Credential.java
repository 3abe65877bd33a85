package io.shardvault.s3;

import java.util.Objects;

/**
 * An access key as the catalog stores it.
 *
 * @param accessKeyId the public id (the {@code Credential=} of a signature)
 * @param secretKey the shared secret SigV4 signing keys derive from
 * @param enabled a disabled key is refused with {@code AccessDenied}
 * @param owner the canonical id of the key's owner
 */
public record Credential(String accessKeyId, String secretKey, boolean enabled, String owner) {
    public Credential {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(owner, "owner");
    }

    @Override
    public String toString() {
        return "Credential[" + accessKeyId + ", enabled=" + enabled + ", owner=" + owner + "]";
    }
}
