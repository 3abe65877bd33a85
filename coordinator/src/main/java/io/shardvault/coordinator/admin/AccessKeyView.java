package io.shardvault.coordinator.admin;

/** An access key without its secret. Immutable. */
public final class AccessKeyView {
    private final String accessKeyId;
    private final String accountId;
    private final String account;
    private final boolean enabled;
    private final boolean bypassGovernanceAllowed;
    private final String bucket;
    private final boolean readOnly;
    private final String createdAt;

    public AccessKeyView(String accessKeyId, String accountId, String account, boolean enabled,
                         boolean bypassGovernanceAllowed, String bucket, boolean readOnly, String createdAt) {
        this.accessKeyId = accessKeyId;
        this.accountId = accountId;
        this.account = account;
        this.enabled = enabled;
        this.bypassGovernanceAllowed = bypassGovernanceAllowed;
        this.bucket = bucket;
        this.readOnly = readOnly;
        this.createdAt = createdAt;
    }

    public String getAccessKeyId() {
        return accessKeyId;
    }

    /** The id of the account the key belongs to. */
    public String getAccountId() {
        return accountId;
    }

    /** The display name of that account. */
    public String getAccount() {
        return account;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public boolean isBypassGovernanceAllowed() {
        return bypassGovernanceAllowed;
    }

    /** The one bucket the key may use, or empty when it may use all its account's. */
    public String getBucket() {
        return bucket;
    }

    /** Whether the key is refused every operation that writes. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** ISO-8601. */
    public String getCreatedAt() {
        return createdAt;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static AccessKeyView from(javax.management.openmbean.CompositeData cd) {
        return new AccessKeyView((String) cd.get("accessKeyId"),
                (String) cd.get("accountId"),
                (String) cd.get("account"),
                (Boolean) cd.get("enabled"),
                (Boolean) cd.get("bypassGovernanceAllowed"),
                (String) cd.get("bucket"),
                (Boolean) cd.get("readOnly"),
                (String) cd.get("createdAt"));
    }
}
