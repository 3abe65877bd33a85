package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;

/**
 * An S3 access key. The secret is kept as is: SigV4 needs it to recompute signatures.
 *
 * @param accessKeyId the public id
 * @param secretKey the secret
 * @param owner a name for who holds it (for operators)
 * @param enabled whether requests signed with it are accepted
 * @param bypassGovernanceAllowed whether it may bypass GOVERNANCE retention
 * @param createdAt the leader's time when it was created
 */
public record AccessKey(String accessKeyId, String secretKey, String owner, boolean enabled,
                        boolean bypassGovernanceAllowed, Instant createdAt) {
    public AccessKey {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    @Override
    public String toString() {
        return "AccessKey[" + accessKeyId + ", owner=" + owner + ", enabled=" + enabled + "]";
    }
}
