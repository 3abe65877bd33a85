package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An S3 access key. SigV4 needs the secret itself to recompute signatures: the catalog stores it sealed
 * under the cluster key ({@link SecretCipher}), and {@link Catalog} hands it out opened.
 *
 * @param accessKeyId the public id
 * @param secretKey the secret (inside the catalog's state machine: as stored, sealed or, before encryption, plain)
 * @param accountId the id of the {@link Account} it belongs to: its buckets are the key's. A key created
 *     before accounts holds the free-text owner it was created with, which is its legacy account's id
 * @param enabled whether requests signed with it are accepted
 * @param bypassGovernanceAllowed whether it may bypass GOVERNANCE retention
 * @param createdAt the leader's time when it was created
 * @param bucket the one bucket it may use, if it is limited to one
 * @param readOnly whether it is refused every operation that writes
 */
public record AccessKey(String accessKeyId, String secretKey, String accountId, boolean enabled,
                        boolean bypassGovernanceAllowed, Instant createdAt, Optional<String> bucket,
                        boolean readOnly) {
    public AccessKey {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(bucket, "bucket");
    }

    /** This key without its secret, as listings show it. */
    public AccessKeyInfo info() {
        return new AccessKeyInfo(accessKeyId, accountId, enabled, bypassGovernanceAllowed, createdAt, bucket, readOnly);
    }

    /** This key, disabled. */
    public AccessKey disabled() {
        return new AccessKey(accessKeyId, secretKey, accountId, false, bypassGovernanceAllowed, createdAt, bucket,
                readOnly);
    }

    /** This key with its secret as given: sealed to store, opened to use. */
    public AccessKey withSecret(String secret) {
        return new AccessKey(accessKeyId, secret, accountId, enabled, bypassGovernanceAllowed, createdAt, bucket,
                readOnly);
    }

    @Override
    public String toString() {
        return "AccessKey[" + accessKeyId + ", account=" + accountId + ", enabled=" + enabled
                + bucket.map(b -> ", bucket=" + b).orElse("") + (readOnly ? ", read-only" : "") + "]";
    }
}
