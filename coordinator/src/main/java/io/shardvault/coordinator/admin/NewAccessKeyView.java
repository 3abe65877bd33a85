package io.shardvault.coordinator.admin;

/** A key just created: the only time its secret is shown. Immutable. */
public final class NewAccessKeyView {
    private final String accessKeyId;
    private final String secretKey;
    private final String owner;
    private final boolean bypassGovernanceAllowed;

    public NewAccessKeyView(String accessKeyId, String secretKey, String owner, boolean bypassGovernanceAllowed) {
        this.accessKeyId = accessKeyId;
        this.secretKey = secretKey;
        this.owner = owner;
        this.bypassGovernanceAllowed = bypassGovernanceAllowed;
    }

    public String getAccessKeyId() {
        return accessKeyId;
    }

    public String getSecretKey() {
        return secretKey;
    }

    public String getOwner() {
        return owner;
    }

    /** Whether the key holds s3:BypassGovernanceRetention. */
    public boolean isBypassGovernanceAllowed() {
        return bypassGovernanceAllowed;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static NewAccessKeyView from(javax.management.openmbean.CompositeData cd) {
        return new NewAccessKeyView((String) cd.get("accessKeyId"),
                (String) cd.get("secretKey"),
                (String) cd.get("owner"),
                (Boolean) cd.get("bypassGovernanceAllowed"));
    }
}
