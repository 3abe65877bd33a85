package io.shardvault.coordinator.admin;

/**
 * A bucket with its usage, as {@code admin buckets list|show} prints it. Immutable.
 *
 * <p>{@code storedBytes} is what the bucket's versions hold (the catalog's exact counter, what a quota is
 * checked against); {@code onDiskBytes} is that after erasure coding, {@code storedBytes x n / k} of the vault's
 * layout, an estimate: it leaves out the padding of each file's last stripe and shares files copied between
 * versions once per version.
 */
public final class BucketView {
    private final String name;
    private final String owner;
    private final String createdAt;
    private final String versioning;
    private final boolean objectLock;
    private final long objects;
    private final long storedBytes;
    private final long onDiskBytes;
    private final long quotaBytes;
    private final String[] lifecycleRules;

    public BucketView(String name, String owner, String createdAt, String versioning, boolean objectLock, long objects,
                      long storedBytes, long onDiskBytes, long quotaBytes, String[] lifecycleRules) {
        this.name = name;
        this.owner = owner;
        this.createdAt = createdAt;
        this.versioning = versioning;
        this.objectLock = objectLock;
        this.objects = objects;
        this.storedBytes = storedBytes;
        this.onDiskBytes = onDiskBytes;
        this.quotaBytes = quotaBytes;
        this.lifecycleRules = lifecycleRules.clone();
    }

    public String getName() {
        return name;
    }

    /** The owning account's id. */
    public String getOwner() {
        return owner;
    }

    /** ISO-8601. */
    public String getCreatedAt() {
        return createdAt;
    }

    /** UNVERSIONED, ENABLED or SUSPENDED. */
    public String getVersioning() {
        return versioning;
    }

    public boolean isObjectLock() {
        return objectLock;
    }

    /** Versions holding data (delete markers excluded). */
    public long getObjects() {
        return objects;
    }

    public long getStoredBytes() {
        return storedBytes;
    }

    public long getOnDiskBytes() {
        return onDiskBytes;
    }

    /** 0 when the bucket has no quota. */
    public long getQuotaBytes() {
        return quotaBytes;
    }

    /** Its lifecycle rules, one line each ({@link LifecycleRuleText}); empty when it has none. */
    public String[] getLifecycleRules() {
        return lifecycleRules.clone();
    }
}
