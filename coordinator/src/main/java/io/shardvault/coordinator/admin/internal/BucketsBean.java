package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.BucketsMXBean;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.Usage;
import java.util.Optional;

/** The Buckets MXBean over the catalog: each call is one catalog operation. Thread-safe. */
public final class BucketsBean implements BucketsMXBean {
    private final Catalog catalog;

    public BucketsBean(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public void setQuota(String bucket, long quotaBytes) {
        Await.call(() -> catalog.setBucketQuota(bucket, quotaBytes), "setting the quota of bucket " + bucket);
    }

    @Override
    public long quota(String bucket) {
        return usage(bucket).quotaBytes();
    }

    @Override
    public long storedBytes(String bucket) {
        return usage(bucket).storedBytes();
    }

    private Usage usage(String bucket) {
        return Await.call(() -> catalog.usage(Optional.of(bucket)), "reading the usage of bucket " + bucket);
    }
}
