package io.shardvault.coordinator.admin;

/** A key just created: the only time its secret is shown. Immutable. */
public final class NewAccessKeyView {
    private final String accessKeyId;
    private final String secretKey;
    private final String accountId;
    private final String account;
    private final boolean bypassGovernanceAllowed;
    private final String bucket;
    private final boolean readOnly;

    public NewAccessKeyView(String accessKeyId, String secretKey, String accountId, String account,
                            boolean bypassGovernanceAllowed, String bucket, boolean readOnly) {
        this.accessKeyId = accessKeyId;
        this.secretKey = secretKey;
        this.accountId = accountId;
        this.account = account;
        this.bypassGovernanceAllowed = bypassGovernanceAllowed;
        this.bucket = bucket;
        this.readOnly = readOnly;
    }

    public String getAccessKeyId() {
        return accessKeyId;
    }

    public String getSecretKey() {
        return secretKey;
    }

    /** The id of the account the key belongs to. */
    public String getAccountId() {
        return accountId;
    }

    /** The display name of that account. */
    public String getAccount() {
        return account;
    }

    /** Whether the key holds s3:BypassGovernanceRetention. */
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

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static NewAccessKeyView from(javax.management.openmbean.CompositeData cd) {
        return new NewAccessKeyView((String) cd.get("accessKeyId"),
                (String) cd.get("secretKey"),
                (String) cd.get("accountId"),
                (String) cd.get("account"),
                (Boolean) cd.get("bypassGovernanceAllowed"),
                (String) cd.get("bucket"),
                (Boolean) cd.get("readOnly"));
    }
}
