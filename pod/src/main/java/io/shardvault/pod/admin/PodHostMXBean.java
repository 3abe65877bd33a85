package io.shardvault.pod.admin;

import io.shardvault.common.jmx.Description;

/** {@code io.shardvault:type=PodHost,name=pods}: the pod instances of this process. */
@Description("The pod instances of this process: unflushed bytes, purge queue depth and age; force a purge retry.")
public interface PodHostMXBean {
    @Description("Each instance: address, slots, unflushed bytes and shards, purge queue depth and oldest age, free space.")
    PodInstanceView[] getPods();

    @Description("Bytes acknowledged in buffered mode and not yet fsynced, summed over the instances.")
    long getUnflushedBytes();

    @Description("Purge events queued durably and not yet delivered to the stash, summed over the instances.")
    long getPurgeQueueDepth();

    @Description("Age of the oldest undelivered purge event over the instances, 0 when none.")
    long getOldestPurgeAgeMillis();

    @Description("Makes every instance's purge sender retry at once, skipping its back-off; returns how many have a stash.")
    int retryPurgesNow();
}
