package io.shardvault.s3;

import java.util.Objects;

/**
 * The canned ACLs of S3 ({@code x-amz-acl}), the only ACLs this server keeps: every bucket has one owner, who
 * holds FULL_CONTROL of the bucket and of every object in it; a canned ACL adds group grants on top.
 *
 * <table>
 *   <caption>What each one grants besides the owner's FULL_CONTROL, and what it lets in</caption>
 *   <tr><th>canned ACL</th><th>grants</th><th>honoured as</th></tr>
 *   <tr><td>private</td><td>none</td><td>owner only</td></tr>
 *   <tr><td>public-read</td><td>AllUsers READ</td><td>anyone (signed or not) may read</td></tr>
 *   <tr><td>public-read-write</td><td>AllUsers READ, WRITE</td><td>anyone may read; on a bucket anyone may
 *       also write and delete objects</td></tr>
 *   <tr><td>authenticated-read</td><td>AuthenticatedUsers READ</td><td>any valid key may read</td></tr>
 *   <tr><td>log-delivery-write</td><td>LogDelivery WRITE, READ_ACP</td><td>owner only (no log delivery)</td></tr>
 *   <tr><td>aws-exec-read, bucket-owner-read, bucket-owner-full-control</td><td>none here (the object
 *       owner is the bucket owner; there is no EC2 account)</td><td>owner only</td></tr>
 * </table>
 *
 * <p>READ on a bucket lets a caller list it (ListObjects, ListObjectVersions, HeadBucket); READ on an
 * object lets it GET and HEAD that version. Reading or changing an ACL is the owner's alone.
 */
public enum CannedAcl {
    PRIVATE("private"),
    PUBLIC_READ("public-read"),
    PUBLIC_READ_WRITE("public-read-write"),
    AUTHENTICATED_READ("authenticated-read"),
    AWS_EXEC_READ("aws-exec-read"),
    BUCKET_OWNER_READ("bucket-owner-read"),
    BUCKET_OWNER_FULL_CONTROL("bucket-owner-full-control"),
    LOG_DELIVERY_WRITE("log-delivery-write");

    private final String headerValue;

    CannedAcl(String headerValue) {
        this.headerValue = headerValue;
    }

    /** The {@code x-amz-acl} value, which is also how stores keep it. */
    public String headerValue() {
        return headerValue;
    }

    /** The canned ACL an {@code x-amz-acl} value names, or {@code null} when it names none. */
    public static CannedAcl fromHeader(String value) {
        for (CannedAcl a : values()) {
            if (a.headerValue.equals(value)) {
                return a;
            }
        }
        return null;
    }

    /** Whether this ACL, on something {@code owner} owns, lets {@code caller} read it. */
    public boolean grantsRead(Caller caller, String owner) {
        Objects.requireNonNull(caller, "caller");
        return caller.owner().equals(owner) || this == PUBLIC_READ || this == PUBLIC_READ_WRITE
                || this == AUTHENTICATED_READ && !caller.isAnonymous();
    }

    /** Whether this ACL, on a bucket {@code owner} owns, lets {@code caller} write and delete its objects. */
    public boolean grantsWrite(Caller caller, String owner) {
        Objects.requireNonNull(caller, "caller");
        return caller.owner().equals(owner) || this == PUBLIC_READ_WRITE;
    }
}
