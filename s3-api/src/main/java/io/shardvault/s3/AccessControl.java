package io.shardvault.s3;

import java.util.Objects;

/**
 * A bucket's or an object version's ACL as GetBucketAcl and GetObjectAcl answer it.
 *
 * @param owner the owner's canonical id (an object's owner is its bucket's owner)
 * @param acl the canned ACL it carries ({@link CannedAcl#PRIVATE} when none was set)
 */
public record AccessControl(String owner, CannedAcl acl) {
    public AccessControl {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(acl, "acl");
    }
}
