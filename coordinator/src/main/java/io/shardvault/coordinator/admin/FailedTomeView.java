package io.shardvault.coordinator.admin;

import io.shardvault.pod.api.FailedTome;
import java.time.Instant;
import javax.management.openmbean.CompositeData;

/**
 * One failed tome of a pod, from the pod's STATS: it takes no writes and its shards' stash copies
 * are kept until an operator replaces the disk and clears it (docs/OPERATIONS.md, "A failed
 * tome"). Immutable.
 */
public final class FailedTomeView {
    private final int tome;
    private final String directory;
    private final String failedAt;
    private final String reason;
    private final boolean recorded;

    public FailedTomeView(int tome, String directory, String failedAt, String reason, boolean recorded) {
        this.tome = tome;
        this.directory = directory;
        this.failedAt = failedAt;
        this.reason = reason;
        this.recorded = recorded;
    }

    /** The view of what a pod reported. */
    public static FailedTomeView of(FailedTome t) {
        return new FailedTomeView(t.tome(), t.directory(),
                t.failedAtMillis() == 0 ? "" : Instant.ofEpochMilli(t.failedAtMillis()).toString(), t.reason(),
                t.recorded());
    }

    /** The tome's index in the pod's {@code pod.tomes}; -1 when the pod did not say. */
    public int getTome() {
        return tome;
    }

    /** The tome's directory on the pod's host. */
    public String getDirectory() {
        return directory;
    }

    /** When it failed (ISO-8601), empty when unknown. */
    public String getFailedAt() {
        return failedAt;
    }

    public String getReason() {
        return reason;
    }

    /**
     * Whether the pod recorded the failure in its state directory. False: that directory refused
     * the record; the pod keeps the tome failed while it runs and retries, but a restart before
     * the record lands would bring the tome back as healthy.
     */
    public boolean isRecorded() {
        return recorded;
    }

    /** Rebuilds a view from its open data (what MXBean proxies receive). */
    public static FailedTomeView from(CompositeData cd) {
        return new FailedTomeView((Integer) cd.get("tome"), (String) cd.get("directory"), (String) cd.get("failedAt"),
                (String) cd.get("reason"), (Boolean) cd.get("recorded"));
    }
}
