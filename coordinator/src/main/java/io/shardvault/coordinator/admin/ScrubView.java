package io.shardvault.coordinator.admin;

import io.shardvault.pod.api.ScrubStatus;
import java.time.Instant;
import javax.management.openmbean.CompositeData;

/**
 * A pod's scrubber as its STATS reported it ({@link ScrubStatus}): the pass under way and the last
 * complete one. {@code reported} is false, and the numbers -1, when the pod did not answer or is
 * older than this report. Damage is counted in shard files. Immutable.
 */
public final class ScrubView {
    private final boolean reported;
    private final long pass;
    private final boolean inPass;
    private final String passStart;
    private final String position;
    private final long passFiles;
    private final long passBytes;
    private final String lastEnd;
    private final long lastDurationMillis;
    private final long lastFiles;
    private final long lastBytes;
    private final long lastCorrupt;
    private final long lastMissing;
    private final long bytesPerSecond;
    private final int heldFindings;

    public ScrubView(boolean reported, long pass, boolean inPass, String passStart, String position, long passFiles,
                     long passBytes, String lastEnd, long lastDurationMillis, long lastFiles, long lastBytes,
                     long lastCorrupt, long lastMissing, long bytesPerSecond, int heldFindings) {
        this.reported = reported;
        this.pass = pass;
        this.inPass = inPass;
        this.passStart = passStart;
        this.position = position;
        this.passFiles = passFiles;
        this.passBytes = passBytes;
        this.lastEnd = lastEnd;
        this.lastDurationMillis = lastDurationMillis;
        this.lastFiles = lastFiles;
        this.lastBytes = lastBytes;
        this.lastCorrupt = lastCorrupt;
        this.lastMissing = lastMissing;
        this.bytesPerSecond = bytesPerSecond;
        this.heldFindings = heldFindings;
    }

    /** Nothing reported: the pod did not answer, or is older than the scrub report. */
    public static final ScrubView NONE = new ScrubView(false, -1, false, "", "", -1, -1, "", -1, -1, -1, -1, -1, -1, -1);

    /** The view of what a pod reported. */
    public static ScrubView of(ScrubStatus s) {
        return new ScrubView(true, s.pass(), s.inPass(), instant(s.passStartMillis()),
                s.position().map(Object::toString).orElse(""), s.passFiles(), s.passBytes(), instant(s.lastEndMillis()),
                s.lastDurationMillis(), s.lastFiles(), s.lastBytes(), s.lastCorrupt(), s.lastMissing(),
                s.bytesPerSecond(), s.heldFindings());
    }

    private static String instant(long epochMillis) {
        return epochMillis == 0 ? "" : Instant.ofEpochMilli(epochMillis).toString();
    }

    /** Whether the pod reported its scrubber (false: the other numbers are -1). */
    public boolean isReported() {
        return reported;
    }

    /** The current (or, when idle, the last) pass; 0 before the first. */
    public long getPass() {
        return pass;
    }

    /** Whether a pass is under way. */
    public boolean isInPass() {
        return inPass;
    }

    /** When the current pass started (ISO-8601), empty before the first. */
    public String getPassStart() {
        return passStart;
    }

    /** The last shard the current pass checked ({@code vault/file/shard}), empty at its start. */
    public String getPosition() {
        return position;
    }

    /** Shard files the current pass checked so far. */
    public long getPassFiles() {
        return passFiles;
    }

    /** Shard bytes the current pass checked so far. */
    public long getPassBytes() {
        return passBytes;
    }

    /** When the last complete pass ended (ISO-8601), empty if none has. */
    public String getLastEnd() {
        return lastEnd;
    }

    public long getLastDurationMillis() {
        return lastDurationMillis;
    }

    /** Shard files the last complete pass checked. */
    public long getLastFiles() {
        return lastFiles;
    }

    /** Shard bytes the last complete pass checked. */
    public long getLastBytes() {
        return lastBytes;
    }

    /** Files the last complete pass found corrupt (a chunk failing its CRC32C, or an unreadable header). */
    public long getLastCorrupt() {
        return lastCorrupt;
    }

    /** Files the last complete pass found with chunks missing. */
    public long getLastMissing() {
        return lastMissing;
    }

    /** The pod's scrub rate setting, bytes per second; 0: scrubbing is off. */
    public long getBytesPerSecond() {
        return bytesPerSecond;
    }

    /** Findings the pod holds that no coordinator has taken yet. */
    public int getHeldFindings() {
        return heldFindings;
    }

    /** Rebuilds a view from its open data (what MXBean proxies receive). */
    public static ScrubView from(CompositeData cd) {
        return new ScrubView((Boolean) cd.get("reported"), (Long) cd.get("pass"), (Boolean) cd.get("inPass"),
                (String) cd.get("passStart"), (String) cd.get("position"), (Long) cd.get("passFiles"),
                (Long) cd.get("passBytes"), (String) cd.get("lastEnd"), (Long) cd.get("lastDurationMillis"),
                (Long) cd.get("lastFiles"), (Long) cd.get("lastBytes"), (Long) cd.get("lastCorrupt"),
                (Long) cd.get("lastMissing"), (Long) cd.get("bytesPerSecond"), (Integer) cd.get("heldFindings"));
    }
}
