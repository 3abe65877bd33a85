package io.shardvault.coordinator.admin;

import io.shardvault.common.jmx.Description;

/**
 * {@code io.shardvault:type=Collect,name=collect}: the orphan collector (issue #20, section 5). The gauges are
 * those of its last pass; the counters this coordinator's since it started.
 */
@Description("Orphan collection: unreferenced files found and collected.")
public interface CollectMXBean {
    @Description("Whether this coordinator collects now (collect.enabled, and its catalog peer leads).")
    boolean isCollectingHere();

    @Description("Unreferenced files the last pass found.")
    long getOrphansFound();

    @Description("Of those, files still within the grace period, left for a later pass.")
    long getOrphansWaiting();

    @Description("Files fenced in the catalog and collected since start.")
    long getFilesCollected();

    @Description("Shards deleted from pods since start.")
    long getShardsDeleted();

    @Description("Stash entries of collected files purged since start.")
    long getStashEntriesPurged();

    @Description("Bytes of those stash entries.")
    long getStashBytesPurged();

    @Description("Failed listings, fences and deletes since start (each is retried on a later pass).")
    long getCollectFailures();

    @Description("When the last complete pass ended, epoch ms (0: none yet).")
    long getLastPassMillis();
}
