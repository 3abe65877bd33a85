package io.shardvault.coordinator.lifecycle;

/** What one lifecycle run removed; one run's thread only. */
final class ExpiryTally {
    long objectsExpired;
    long noncurrentExpired;
    long deleteMarkersRemoved;
    long uploadsAborted;
    long bytesFreed;
    long skippedLocked;

    /** Whether anything was removed (the file reaper then has work). */
    boolean removedAny() {
        return objectsExpired + noncurrentExpired + deleteMarkersRemoved + uploadsAborted > 0;
    }

    void addTo(LifecycleMetrics m) {
        m.objectsExpired.increment(objectsExpired);
        m.noncurrentExpired.increment(noncurrentExpired);
        m.deleteMarkersRemoved.increment(deleteMarkersRemoved);
        m.uploadsAborted.increment(uploadsAborted);
        m.bytesFreed.increment(bytesFreed);
        m.skippedLocked.increment(skippedLocked);
    }

    LifecycleExpirer.Run toRun(int buckets) {
        return new LifecycleExpirer.Run(buckets, objectsExpired, noncurrentExpired, deleteMarkersRemoved,
                uploadsAborted, bytesFreed, skippedLocked);
    }
}
