package io.shardvault.coordinator.admin.internal;

import io.shardvault.coordinator.admin.CollectMXBean;
import io.shardvault.coordinator.collect.OrphanCollector;

/** The Collect MXBean over the coordinator's orphan collector. Thread-safe. */
public final class CollectBean implements CollectMXBean {
    private final OrphanCollector collector;

    public CollectBean(OrphanCollector collector) {
        this.collector = collector;
    }

    @Override
    public boolean isCollectingHere() {
        return collector.status().collectingHere();
    }

    @Override
    public long getOrphansFound() {
        return collector.status().orphansFound();
    }

    @Override
    public long getOrphansWaiting() {
        return collector.status().orphansWaiting();
    }

    @Override
    public long getFilesCollected() {
        return collector.status().filesCollected();
    }

    @Override
    public long getShardsDeleted() {
        return collector.status().shardsDeleted();
    }

    @Override
    public long getStashEntriesPurged() {
        return collector.status().stashEntriesPurged();
    }

    @Override
    public long getStashBytesPurged() {
        return collector.status().stashBytesPurged();
    }

    @Override
    public long getCollectFailures() {
        return collector.status().failures();
    }

    @Override
    public long getLastPassMillis() {
        return collector.status().lastPassEpochMillis();
    }
}
