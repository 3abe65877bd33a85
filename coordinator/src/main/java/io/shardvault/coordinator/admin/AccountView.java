package io.shardvault.coordinator.admin;

/** An account with its key and bucket counts. Immutable. */
public final class AccountView {
    private final String id;
    private final String name;
    private final String createdAt;
    private final boolean legacy;
    private final int keys;
    private final int buckets;

    public AccountView(String id, String name, String createdAt, boolean legacy, int keys, int buckets) {
        this.id = id;
        this.name = name;
        this.createdAt = createdAt;
        this.legacy = legacy;
        this.keys = keys;
        this.buckets = buckets;
    }

    /** The stable id buckets and keys refer to. */
    public String getId() {
        return id;
    }

    /** The display name ({@code admin keys create --account NAME}). */
    public String getName() {
        return name;
    }

    /** ISO-8601. */
    public String getCreatedAt() {
        return createdAt;
    }

    /** Whether it is the owner string of keys or buckets made before accounts (its id is that string). */
    public boolean isLegacy() {
        return legacy;
    }

    public int getKeys() {
        return keys;
    }

    public int getBuckets() {
        return buckets;
    }

    /** Rebuilds a view from its open data (what MXBean proxies, such as the admin CLI's, receive). */
    public static AccountView from(javax.management.openmbean.CompositeData cd) {
        return new AccountView((String) cd.get("id"), (String) cd.get("name"), (String) cd.get("createdAt"),
                (Boolean) cd.get("legacy"), (Integer) cd.get("keys"), (Integer) cd.get("buckets"));
    }
}
