package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Buckets,name=buckets}: buckets, their usage and quotas in the catalog. */
@Description("Buckets with their usage, and their quotas, kept in the catalog. A write that would exceed a bucket's"
        + " quota is refused (QuotaExceeded); SOSAPI's capacity.xml reports the quota as the bucket's capacity.")
public interface BucketsMXBean {
    @Description("Every bucket with its owner, versioning, object count, bytes stored and quota.")
    BucketView[] getBuckets();

    @Description("One bucket with its usage.")
    BucketView bucket(@Description(value = "The bucket's name.", name = "bucket") String bucket);

    @Description("Sets a bucket's quota in bytes; 0 removes it.")
    void setQuota(@Description(value = "The bucket's name.", name = "bucket") String bucket,
                  @Description(value = "The quota in bytes, 0 for none.", name = "quotaBytes") long quotaBytes);

    @Description("A bucket's quota in bytes, 0 when it has none.")
    long quota(@Description(value = "The bucket's name.", name = "bucket") String bucket);

    @Description("The bytes a bucket's versions hold.")
    long storedBytes(@Description(value = "The bucket's name.", name = "bucket") String bucket);
}
