package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.BucketView;
import io.shardvault.coordinator.admin.BucketsMXBean;
import io.shardvault.coordinator.admin.LifecycleRuleText;
import io.shardvault.coordinator.catalog.Bucket;
import io.shardvault.coordinator.catalog.Catalog;
import io.shardvault.coordinator.catalog.Usage;
import io.shardvault.coordinator.lifecycle.StoredLifecycle;
import java.util.Optional;

/** The Buckets MXBean over the catalog: each call is one catalog operation per bucket. Thread-safe. */
public final class BucketsBean implements BucketsMXBean {
    private final Catalog catalog;
    private final int n;
    private final int k;

    /**
     * @param n the vault's shards per stripe
     * @param k its data shards: on-disk bytes are stored bytes x n / k
     */
    public BucketsBean(Catalog catalog, int n, int k) {
        this.catalog = catalog;
        this.n = n;
        this.k = k;
    }

    @Override
    public BucketView[] getBuckets() {
        return Await.call(catalog::listBuckets, "listing the buckets").stream().map(this::view)
                .toArray(BucketView[]::new);
    }

    @Override
    public BucketView bucket(String bucket) {
        return view(Await.call(() -> catalog.getBucket(bucket), "reading bucket " + bucket));
    }

    private BucketView view(Bucket b) {
        Usage u = usage(b.name());
        return new BucketView(b.name(), b.ownerAccessKeyId(), b.createdAt().toString(), b.versioning().name(),
                b.objectLockEnabled(), u.objectVersions(), u.storedBytes(),
                (long) Math.ceil((double) u.storedBytes() * n / k), u.quotaBytes(), lifecycle(b.name()));
    }

    private String[] lifecycle(String bucket) {
        return Await.call(() -> StoredLifecycle.read(catalog, bucket), "reading the lifecycle rules of bucket " + bucket)
                .map(c -> c.rules().stream().map(LifecycleRuleText::of).toArray(String[]::new))
                .orElse(new String[0]);
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
