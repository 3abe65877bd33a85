package io.shardvault.coordinator.catalog;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a listing of access keys shows: everything about a key but its secret, which only a lookup by id
 * (the S3 authenticator's) carries out of the catalog.
 *
 * @param accessKeyId the public id
 * @param accountId the id of the {@link Account} it belongs to
 * @param enabled whether requests signed with it are accepted
 * @param bypassGovernanceAllowed whether it may bypass GOVERNANCE retention
 * @param createdAt the leader's time when it was created
 * @param bucket the one bucket it may use, if it is limited to one
 * @param readOnly whether it is refused every operation that writes
 */
public record AccessKeyInfo(String accessKeyId, String accountId, boolean enabled, boolean bypassGovernanceAllowed,
                            Instant createdAt, Optional<String> bucket, boolean readOnly) {
    public AccessKeyInfo {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(bucket, "bucket");
    }
}
