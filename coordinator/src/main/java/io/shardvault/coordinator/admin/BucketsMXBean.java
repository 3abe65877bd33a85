package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=Buckets,name=buckets}: bucket quotas in the catalog. */
@Description("Bucket quotas kept in the catalog. SOSAPI's capacity.xml reports a bucket's quota as its capacity.")
public interface BucketsMXBean {
    @Description("Sets a bucket's quota in bytes; 0 removes it.")
    void setQuota(@Description(value = "The bucket's name.", name = "bucket") String bucket,
                  @Description(value = "The quota in bytes, 0 for none.", name = "quotaBytes") long quotaBytes);

    @Description("A bucket's quota in bytes, 0 when it has none.")
    long quota(@Description(value = "The bucket's name.", name = "bucket") String bucket);

    @Description("The bytes a bucket's versions hold.")
    long storedBytes(@Description(value = "The bucket's name.", name = "bucket") String bucket);
}
