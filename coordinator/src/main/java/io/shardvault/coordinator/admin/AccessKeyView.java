package io.shardvault.coordinator.admin;

/** An access key without its secret. Immutable. */
public final class AccessKeyView {
    private final String accessKeyId;
    private final String owner;
    private final boolean enabled;
    private final boolean bypassGovernanceAllowed;
    private final String createdAt;

    public AccessKeyView(String accessKeyId, String owner, boolean enabled, boolean bypassGovernanceAllowed,
                         String createdAt) {
        this.accessKeyId = accessKeyId;
        this.owner = owner;
        this.enabled = enabled;
        this.bypassGovernanceAllowed = bypassGovernanceAllowed;
        this.createdAt = createdAt;
    }

    public String getAccessKeyId() {
        return accessKeyId;
    }

    public String getOwner() {
        return owner;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public boolean isBypassGovernanceAllowed() {
        return bypassGovernanceAllowed;
    }

    /** ISO-8601. */
    public String getCreatedAt() {
        return createdAt;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static AccessKeyView from(javax.management.openmbean.CompositeData cd) {
        return new AccessKeyView((String) cd.get("accessKeyId"),
                (String) cd.get("owner"),
                (Boolean) cd.get("enabled"),
                (Boolean) cd.get("bypassGovernanceAllowed"),
                (String) cd.get("createdAt"));
    }
}
