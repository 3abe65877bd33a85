package io.shardvault.s3;

import java.util.Objects;

/**
 * The authenticated principal of one request: the access key that signed it and the owner that key
 * belongs to. The store uses the owner for bucket ownership and listings, and the key for
 * permissions (for example who may bypass GOVERNANCE retention, issue #9).
 *
 * @param accessKeyId the access key id that signed the request
 * @param owner the canonical id of the key's owner; buckets belong to owners, not keys
 */
public record Caller(String accessKeyId, String owner) {
    public Caller {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(owner, "owner");
    }
}
